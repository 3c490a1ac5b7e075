import { MAX_JSON_DEPTH, scanJson, textFaults } from 'src/common/http/hostile-input';

describe('scanJson', () => {
  const arrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('should accept the maximum depth and refuse one level more when arrays and objects nest', () => {
    expect(scanJson(arrays(MAX_JSON_DEPTH))).toEqual({ tooDeep: false, hasNul: false, hasSurrogate: false });
    expect(scanJson(arrays(MAX_JSON_DEPTH + 1)).tooDeep).toBe(true);
    expect(scanJson(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`).tooDeep).toBe(true);
  });

  it('should count depth, not brackets, when siblings follow each other', () => {
    expect(scanJson(`[${Array.from({ length: 1000 }, () => arrays(MAX_JSON_DEPTH - 1)).join(',')}]`).tooDeep).toBe(false);
  });

  it('should ignore brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: `"${'['.repeat(100)}\\"{{{` });
    expect(scanJson(text, 1)).toEqual({ tooDeep: false, hasNul: false, hasSurrogate: false });
  });

  it('should notice an escaped NUL in a key or a value, but not an escaped backslash before u0000', () => {
    expect(scanJson(JSON.stringify({ a: 'x\u0000' })).hasNul).toBe(true);
    expect(scanJson(JSON.stringify({ ['k\u0000']: 1 })).hasNul).toBe(true);
    expect(scanJson(JSON.stringify({ a: '\\u0000' })).hasNul).toBe(false);
  });

  it('should notice an escaped surrogate in either case, but not an escaped backslash before ud800 nor a BMP escape', () => {
    expect(scanJson('{"a":"\\ud800"}').hasSurrogate).toBe(true);
    expect(scanJson('{"a":"\\uDFFF"}').hasSurrogate).toBe(true);
    expect(scanJson('{"\\udbff":1}').hasSurrogate).toBe(true);
    expect(scanJson('{"a":"\\\\ud800"}').hasSurrogate).toBe(false);
    expect(scanJson('{"a":"\\ud7ff\\ue000\\u00e9"}').hasSurrogate).toBe(false);
  });
});

describe('textFaults', () => {
  const nul = (field: string) => ({ field, message: `${field} must not contain the NUL character (\\u0000)` });
  const lone = (field: string) => ({ field, message: `${field} must not contain a lone surrogate (\\ud800 to \\udfff without its pair): it is not valid Unicode text` });

  it('should name every field holding a NUL as validation errors name fields', () => {
    expect(textFaults({ a: 'ok', b: { c: ['x', 'y\u0000'] }, ['d\u0000']: 1 })).toEqual([nul('b.c.1'), nul('d\\u0000')]);
  });

  it('should name strings and keys holding a lone high or low surrogate, and pass a paired one', () => {
    expect(textFaults({ ok: 'smile \u{1F600}', a: 'x\ud800', b: ['\udc00y'], c: '\ud800\ud800\udc00', ['k\udfff']: 1 })).toEqual([
      lone('a'),
      lone('b.0'),
      lone('c'),
      lone('k\\udfff'),
    ]);
    expect(textFaults('\ud83d')).toEqual([lone('(body)')]);
  });

  it('should stop at ten fields when many strings hold a NUL or a lone surrogate', () => {
    expect(textFaults(Array.from({ length: 50 }, (_, i) => (i % 2 ? '\u0000' : '\ud800')))).toHaveLength(10);
  });
});
