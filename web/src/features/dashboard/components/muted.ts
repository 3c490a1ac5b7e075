/**
 * Secondary text with AA contrast in both schemes (Mantine's "dimmed" gray is about 3.3:1 on white,
 * which axe refuses for small text).
 */
export const MUTED = 'light-dark(var(--mantine-color-gray-7), var(--mantine-color-dark-1))';
