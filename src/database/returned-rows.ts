/** Rows an UPDATE ... RETURNING gave back (pg answers [rows, count] for updates; PGlite the rows). */
export const returnedRows = <T>(raw: unknown): T[] => {
  if (Array.isArray(raw) && raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number') {
    return raw[0] as T[];
  }
  return Array.isArray(raw) ? (raw as T[]) : [];
};
