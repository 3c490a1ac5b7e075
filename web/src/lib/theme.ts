import { createTheme, localStorageColorSchemeManager, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Also read by web/public/theme.js before the first paint: change both together. */
const COLOR_SCHEME_KEY = 'hatchery-color-scheme';

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });

// A burnt orange whose shade 8 carries white text and links on white at WCAG AA (≥ 4.5:1); Mantine's
// own orange is too light for either.
const hatch: MantineColorsTuple = ['#fff4e6', '#ffe8cc', '#ffd8a8', '#ffc078', '#ffa94d', '#ff922b', '#fd7e14', '#e8590c', '#c2410c', '#9a3412'];

export const theme = createTheme({
  colors: { hatch },
  primaryColor: 'hatch',
  // Shade 8 in both schemes: white text on it is 5.2:1. The dark scheme's lighter shade 6 needed
  // autoContrast's black text, which Mantine does not apply to every filled primary component.
  primaryShade: { light: 8, dark: 8 },
  // Black text on light fills (yellow or lime badges...), white on dark ones.
  autoContrast: true,
  luminanceThreshold: 0.3,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
  focusRing: 'auto',
});

/**
 * Dimmed text with AA contrast in both schemes: on white Mantine's gray.6 is 3.3:1 (gray.7 is 8:1),
 * on the dark body its dark.2 is 4.0:1 (dark.1 is 8.6:1). Field errors likewise: Mantine's red.6 is
 * 3.3:1 on white (red.9 is 5.7:1), its red.8 3.6:1 on the dark body (red.4 is 6.4:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7], '--mantine-color-error': t.colors.red[9] },
  dark: { '--mantine-color-dimmed': t.colors.dark[1], '--mantine-color-error': t.colors.red[4] },
});
