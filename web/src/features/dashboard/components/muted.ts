/** Secondary text: the theme's dimmed colour, set to AA contrast in both schemes (web/src/lib/theme.ts). */
export const MUTED = 'var(--mantine-color-dimmed)';
