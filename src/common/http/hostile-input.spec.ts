import { MAX_JSON_DEPTH, nulFields, scanJson } from 'src/common/http/hostile-input';

describe('scanJson', () => {
  const arrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('should accept the maximum depth and refuse one level more when arrays and objects nest', () => {
    expect(scanJson(arrays(MAX_JSON_DEPTH))).toEqual({ tooDeep: false, hasNul: false });
    expect(scanJson(arrays(MAX_JSON_DEPTH + 1)).tooDeep).toBe(true);
    expect(scanJson(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`).tooDeep).toBe(true);
  });

  it('should count depth, not brackets, when siblings follow each other', () => {
    expect(scanJson(`[${Array.from({ length: 1000 }, () => arrays(MAX_JSON_DEPTH - 1)).join(',')}]`).tooDeep).toBe(false);
  });

  it('should ignore brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: `"${'['.repeat(100)}\\"{{{` });
    expect(scanJson(text, 1)).toEqual({ tooDeep: false, hasNul: false });
  });

  it('should notice an escaped NUL in a key or a value, but not an escaped backslash before u0000', () => {
    expect(scanJson(JSON.stringify({ a: 'x\u0000' })).hasNul).toBe(true);
    expect(scanJson(JSON.stringify({ ['k\u0000']: 1 })).hasNul).toBe(true);
    expect(scanJson(JSON.stringify({ a: '\\u0000' })).hasNul).toBe(false);
  });
});

describe('nulFields', () => {
  it('should name every field holding a NUL as validation errors name fields', () => {
    expect(nulFields({ a: 'ok', b: { c: ['x', 'y\u0000'] }, ['d\u0000']: 1 })).toEqual(['b.c.1', 'd\\u0000']);
  });

  it('should stop at ten fields when many strings hold a NUL', () => {
    expect(nulFields(Array.from({ length: 50 }, () => '\u0000'))).toHaveLength(10);
  });
});
