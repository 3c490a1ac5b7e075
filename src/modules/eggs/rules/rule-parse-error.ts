/** Thrown when a variable's rules string cannot be parsed; shared by the rule parser and the PCRE translation. */
export class RuleParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuleParseError';
  }
}
