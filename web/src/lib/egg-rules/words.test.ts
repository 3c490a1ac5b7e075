import { VALUE_CASES } from 'test/fixtures/egg-rule-cases';
import { describe, expect, it } from 'vitest';
import { parseRules } from '@/lib/egg-rules';
import { describeRules } from '@/lib/egg-rules/words';
import en from '@/lib/i18n/en.json';

const words = (rules: string) => describeRules(parseRules(rules));

describe('describeRules', () => {
  it('should say a port rule in words, with numbers as numbers', () => {
    expect(words('required|integer|between:1025,65535')).toEqual([
      { key: 'required', values: {} },
      { key: 'integer', values: {} },
      { key: 'between', values: { min: '1025', max: '65535' } },
    ]);
  });

  it('should speak of characters when no rule makes the value a number', () => {
    expect(words('nullable|string|max:20')).toEqual([
      { key: 'nullable', values: {} },
      { key: 'string', values: {} },
      { key: 'maxChars', values: { value: '20' } },
    ]);
  });

  it('should leave out nullable when the value is required, and the flags that change nothing', () => {
    expect(words('bail|sometimes|nullable|required').map((w) => w.key)).toEqual(['required']);
  });

  it('should keep a pattern and a list of values as the egg wrote them', () => {
    expect(words('required|regex:/^([\\w\\d._-]+)(\\.jar)$/')[1]).toEqual({ key: 'regex', values: { pattern: '/^([\\w\\d._-]+)(\\.jar)$/' } });
    expect(words('in:vanilla,oxide,carbon')).toEqual([{ key: 'in', values: { values: 'vanilla, oxide, carbon' } }]);
  });

  it('should have an English phrase for every rule the shared cases use', () => {
    const keys = new Set(VALUE_CASES.flatMap(([rules]) => words(rules).map((w) => w.key)));
    expect([...keys].filter((k) => !(k in en.eggRules))).toEqual([]);
    expect(keys.size).toBeGreaterThan(40);
  });
});
