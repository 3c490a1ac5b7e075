import type { ParsedRule } from 'src/modules/eggs/rules/variable-rules';

/** The phrases of en.json's `eggRules` section: one per rule, the size rules twice (numbers or characters). */
type RuleWordKey =
  | 'required' | 'nullable' | 'present' | 'filled' | 'string' | 'integer' | 'numeric' | 'boolean' | 'decimal'
  | 'between' | 'betweenChars' | 'min' | 'minChars' | 'max' | 'maxChars' | 'size' | 'sizeChars'
  | 'gt' | 'gte' | 'lt' | 'lte' | 'digits' | 'digitsBetween' | 'in' | 'notIn' | 'regex' | 'notRegex'
  | 'alpha' | 'alphaNum' | 'alphaDash' | 'ascii' | 'lowercase' | 'uppercase'
  | 'startsWith' | 'endsWith' | 'doesntStartWith' | 'doesntEndWith'
  | 'url' | 'urlSchemes' | 'email' | 'ip' | 'ipv4' | 'ipv6' | 'uuid' | 'uuidVersion' | 'json';

interface RuleWords {
  key: RuleWordKey;
  values: Record<string, string>;
}

const trimmed = (args: string[]): string[] => args.map((a) => a.trim());
const list = (args: string[]): string => args.join(', ');

/**
 * What parsed rules ask of a value, in plain words for people who do not read Laravel rules: `required|integer|between:1,65535`
 * gives required, a whole number, between 1 and 65535. Size rules speak of characters unless the list makes the value a
 * number, as the panel measures them. bail and sometimes change nothing a reader needs to know; nullable is said only
 * when nothing requires a value.
 */
export const describeRules = (rules: ParsedRule[]): RuleWords[] => {
  const names = new Set(rules.map((r) => r.name));
  const numeric = names.has('integer') || names.has('numeric') || names.has('decimal');
  const sized = (key: 'between' | 'min' | 'max' | 'size'): RuleWordKey => (numeric ? key : `${key}Chars`);
  const out: RuleWords[] = [];
  for (const { name, args: raw } of rules) {
    const args = trimmed(raw);
    const say = (key: RuleWordKey, values: Record<string, string> = {}) => out.push({ key, values });
    switch (name) {
      case 'bail':
      case 'sometimes':
        break;
      case 'nullable':
        if (!names.has('required')) {
          say('nullable');
        }
        break;
      case 'required':
      case 'present':
      case 'filled':
      case 'string':
      case 'integer':
      case 'numeric':
      case 'boolean':
      case 'ascii':
      case 'lowercase':
      case 'uppercase':
      case 'email':
      case 'ip':
      case 'ipv4':
      case 'ipv6':
      case 'json':
        say(name);
        break;
      case 'decimal':
        say('decimal', { places: args.join('–') });
        break;
      case 'between':
        say(sized('between'), { min: args[0], max: args[1] });
        break;
      case 'min':
      case 'max':
      case 'size':
        say(sized(name), { value: args[0] });
        break;
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        say(name, { value: args[0] });
        break;
      case 'digits':
        say('digits', { value: args[0] });
        break;
      case 'digits_between':
        say('digitsBetween', { min: args[0], max: args[1] });
        break;
      case 'in':
        say('in', { values: list(raw) });
        break;
      case 'not_in':
        say('notIn', { values: list(raw) });
        break;
      case 'regex':
        say('regex', { pattern: raw[0] });
        break;
      case 'not_regex':
        say('notRegex', { pattern: raw[0] });
        break;
      case 'alpha':
        say('alpha');
        break;
      case 'alpha_num':
        say('alphaNum');
        break;
      case 'alpha_dash':
        say('alphaDash');
        break;
      case 'starts_with':
        say('startsWith', { values: list(raw) });
        break;
      case 'ends_with':
        say('endsWith', { values: list(raw) });
        break;
      case 'doesnt_start_with':
        say('doesntStartWith', { values: list(raw) });
        break;
      case 'doesnt_end_with':
        say('doesntEndWith', { values: list(raw) });
        break;
      case 'url':
        say(args.length > 0 ? 'urlSchemes' : 'url', { schemes: list(args) });
        break;
      case 'uuid':
        say(args.length > 0 ? 'uuidVersion' : 'uuid', { version: args[0] ?? '' });
        break;
      default:
        // parseRules refuses every other name, so a new backend rule without words lands here and fails the test.
        throw new Error(`no words for the rule "${name}"`);
    }
  }
  return out;
};
