/** A user agent in plain words: the browser (or tool) and the system it runs on, each null when unknown. */
interface Device {
  browser: string | null;
  os: string | null;
}

// Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari", and so on.
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/\d/, 'Edge'],
  [/\b(?:OPR|Opera)\/\d/, 'Opera'],
  [/\bSamsungBrowser\/\d/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/\d/, 'Firefox'],
  [/\b(?:HeadlessChrome)\/\d/, 'Headless Chrome'],
  [/\b(?:Chrome|CriOS|Chromium)\/\d/, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/\d/, 'Safari'],
  [/^curl\//, 'curl'],
  [/^Wget\//i, 'Wget'],
  [/^(?:node|undici)\b/i, 'Node.js'],
  [/^python-requests\//i, 'Python requests'],
  [/^Go-http-client\//, 'Go HTTP client'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const first = (table: [RegExp, string][], ua: string): string | null => table.find(([pattern]) => pattern.test(ua))?.[1] ?? null;

/** "Mozilla/5.0 (Windows NT 10.0; …) … Chrome/131 …" → { browser: 'Chrome', os: 'Windows' }. */
export const describeUserAgent = (userAgent: string | null | undefined): Device => {
  const ua = (userAgent ?? '').trim();
  return ua ? { browser: first(BROWSERS, ua), os: first(SYSTEMS, ua) } : { browser: null, os: null };
};
