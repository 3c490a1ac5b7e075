import { existsSync } from 'node:fs';

/** Debian's Chromium builds Playwright drives (it downloads no browser here): CHROMIUM_PATH first. */
const CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

export const findChromium = (): string | undefined => {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    return existsSync(chosen) ? chosen : undefined;
  }
  return CANDIDATES.find((path) => existsSync(path));
};

export const isCi = (): boolean => process.env.CI === 'true' || process.env.CI === '1';
