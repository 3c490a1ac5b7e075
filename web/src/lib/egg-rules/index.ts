/**
 * The egg variable rules (`required|integer|between:1,65535`) in the browser: the panel's own module, not a copy.
 * src/modules/eggs/rules is pure TypeScript over re2js (no Node import), so the web bundle takes it as it is (the `src/`
 * alias in web/vite.config.mts): a value the page accepts is one the panel accepts, with the same message, and a rules
 * string the admin's editor accepts is one the panel stores. re2js is large; only the pages that import this load it.
 */
import { parseRules, RuleParseError, validateValue } from 'src/modules/eggs/rules/variable-rules';

export type { ParsedRule } from 'src/modules/eggs/rules/variable-rules';
export { parseRules, RuleParseError, validateValue };

/** Why the panel would refuse a rules string when an egg is saved (unknown rule, bad argument, bad pattern); null when it is accepted. */
export const ruleStringProblem = (rules: string): string | null => {
  try {
    parseRules(rules);
    return null;
  } catch (e) {
    if (e instanceof RuleParseError) {
      return e.message;
    }
    throw e;
  }
};

/**
 * The messages the panel would answer for this value of a variable (`attribute` is its env name, as the panel words
 * them), [] when it passes. A rules string the panel refuses gives [] too: it never reaches a stored egg, and if one
 * did, the panel's answer on save is the one to show.
 */
export const valueProblems = (rules: string, value: string | null | undefined, attribute: string): string[] => {
  if (ruleStringProblem(rules) !== null) {
    return [];
  }
  return validateValue(parseRules(rules), value, attribute);
};
