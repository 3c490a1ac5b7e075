import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

/** Also read by web/public/theme.js before the first paint: change both together. */
const COLOR_SCHEME_KEY = 'hatchery-color-scheme';

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });

export const theme = createTheme({
  primaryColor: 'orange',
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
  focusRing: 'auto',
});
