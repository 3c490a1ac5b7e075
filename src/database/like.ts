/** `text` as a literal inside a LIKE/ILIKE pattern (`\` is PostgreSQL's default escape): `%` and `_` match only themselves. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
