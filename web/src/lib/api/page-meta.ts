/**
 * The page-number meta of a list that also answers cursor pages (docs/api.md#cursor-pages): the API
 * describes both shapes, and the web app asks for page numbers, so a cursor answer here is a bug.
 */
export const pageMeta = <P>(meta: { pagination: P } | { cursor: unknown }): { pagination: P } => {
  if ('pagination' in meta) {
    return { pagination: meta.pagination };
  }
  throw new Error('expected a page-number answer');
};
