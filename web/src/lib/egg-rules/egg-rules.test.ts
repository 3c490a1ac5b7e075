import { MESSAGE_CASES, PATTERN_ERROR_CASES, RULE_ERROR_CASES, VALUE_CASES } from 'test/fixtures/egg-rule-cases';
import { describe, expect, it } from 'vitest';
import { parseRules, ruleStringProblem, valueProblems } from '@/lib/egg-rules';

// The panel's Jest spec (src/modules/eggs/rules/variable-rules.spec.ts) runs the same tables: these rows check that the
// module behaves the same once Vite has bundled it for the browser (re2js's ES build, Unicode regexes, BigInt).
describe('egg rules in the browser', () => {
  it.each(VALUE_CASES)('should answer like the panel for %j on %j (valid: %j)', (rules, value, valid) => {
    expect(valueProblems(rules, value, 'VAR').length === 0).toBe(valid);
  });

  it.each(MESSAGE_CASES)('should word %j on %j as the panel does for %j', (rules, value, attribute, messages) => {
    expect(valueProblems(rules, value, attribute)).toEqual(messages);
  });

  it.each([...RULE_ERROR_CASES, ...PATTERN_ERROR_CASES])('should refuse the rules %j with the panel message', (rules, message) => {
    expect(ruleStringProblem(rules)).toBe(message);
  });

  it('should accept the rules strings of the seeded Paper egg and keep a regex with a pipe whole', () => {
    expect(ruleStringProblem('required|regex:/^([\\w\\d._-]+)(\\.jar)$/')).toBeNull();
    expect(ruleStringProblem('')).toBeNull();
    expect(parseRules('required|regex:/^(a|b)$/i|max:3').map((r) => r.name)).toEqual(['required', 'regex', 'max']);
  });

  it('should run no value check when the rules themselves are refused', () => {
    expect(valueProblems('foo|max:1', 'too long', 'VAR')).toEqual([]);
  });

  it('should answer in linear time when a pattern is catastrophic for backtracking', () => {
    expect(valueProblems('regex:/^(a+)+$/', 'a'.repeat(4095) + 'b', 'VAR')).toEqual(['The VAR field format is invalid.']);
  });
});
