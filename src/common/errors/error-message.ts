/**
 * What went wrong, in words, for a log line or a stored reason: an error's message; for pg-boss's worker
 * 'error' events, which are plain objects (the error's fields spread), theirs; for an error with no message
 * (Node's AggregateError of a connection refused on every address), its code and its parts'; for an error
 * with none of these, its name; for anything else, what it is.
 */
export const errorMessage = (e: unknown): string => {
  if (typeof e !== 'object' || e === null) {
    return String(e);
  }
  const { message: text, code, errors, name } = e as { message?: unknown; code?: unknown; errors?: unknown; name?: unknown };
  if (typeof text === 'string' && text !== '') {
    return text;
  }
  const parts = Array.isArray(errors) ? [...new Set(errors.map(errorMessage))].join('; ') : '';
  const said = [typeof code === 'string' ? code : '', parts].filter(Boolean).join(': ');
  if (said !== '') {
    return said;
  }
  if (typeof name === 'string' && name !== '') {
    return name;
  }
  try {
    return JSON.stringify(e) ?? Object.prototype.toString.call(e);
  } catch {
    return Object.prototype.toString.call(e);
  }
};
