/** The CSP header as a map of directive → sources. */
export const cspOf = (header: string | undefined): Map<string, string[]> =>
  new Map(
    (header ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]): [string, string[]] => [name, sources]),
  );
