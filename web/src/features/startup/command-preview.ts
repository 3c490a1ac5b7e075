/** A placeholder of a startup command, as the panel fills them in (`{{VAR}}`, `{{env.VAR}}`, `{{server.build.env.VAR}}`). */
const PLACEHOLDER = /\{\{\s*(?:env\.|server\.build\.env\.)?([A-Za-z0-9_]+)\s*\}\}/g;

/**
 * The startup command with the values being typed: `raw` is the command with placeholders, `rendered` the panel's own
 * filling (variables the user may not see show as [hidden] there, names that are no egg variable, such as
 * {{SERVER_MEMORY}}, stay as written: the node fills those in), `values` the visible variables' current values.
 */
export const previewCommand = (raw: string, rendered: string, values: Readonly<Record<string, string>>): string =>
  raw.replace(PLACEHOLDER, (whole, name: string) => {
    if (Object.hasOwn(values, name)) {
      return values[name];
    }
    return rendered.includes(whole) ? whole : '[hidden]';
  });
