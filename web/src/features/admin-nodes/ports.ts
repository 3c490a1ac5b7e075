/** The panel's bounds (Pterodactyl's): at most 1000 ports in one range, 100 entries in one request. */
const RANGE_LIMIT = 1000;
const MAX_ENTRIES = 100;

type PortsParse = { ports: string[]; count: number } | { error: 'invalid' | 'range' | 'tooMany' };

/**
 * `25565, 25570-25580 25590` → the entries the API takes (`["25565", "25570-25580", "25590"]`) and how many
 * ports they make. Separators are commas or spaces; ports are 1024–65535 and ranges go up.
 */
export const parsePorts = (input: string): PortsParse => {
  const parts = input.split(/[\s,]+/).filter(Boolean);
  const ports: string[] = [];
  let count = 0;
  for (const part of parts) {
    const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part);
    if (!match) {
      return { error: 'invalid' };
    }
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1024 || to > 65535 || to < from) {
      return { error: 'range' };
    }
    if (to - from + 1 > RANGE_LIMIT) {
      return { error: 'tooMany' };
    }
    count += to - from + 1;
    ports.push(match[2] === undefined ? String(from) : `${from}-${to}`);
  }
  if (ports.length > MAX_ENTRIES) {
    return { error: 'tooMany' };
  }
  return { ports, count };
};
