import type { FieldError } from 'src/common/validation/validation.pipe';
import type { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { parseRules, validateValue } from 'src/modules/eggs/rules/variable-rules';

/** As UpdateStartupVariableDto caps `value` on the client route. */
const ENV_VALUE_MAX_LENGTH = 4096;

/** Environment values are strings; numbers and booleans are written as Wings would write them. */
const asText = (value: unknown): string | undefined => {
  if (value === null || value === undefined) {
    return undefined;
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
};

/**
 * Checks an `environment` object against an egg's variables: unknown keys are refused, each value
 * (or, when absent, the variable's default) must pass the variable's rules. Returns the values to
 * store per variable id, or the field errors.
 */
export const checkEnvironment = (
  variables: EggVariableEntity[],
  environment: Record<string, unknown>,
  { onlyGiven = false }: { onlyGiven?: boolean } = {},
): { values: Map<string, string>; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  const values = new Map<string, string>();
  const byEnv = new Map(variables.map((v) => [v.envVariable, v]));
  for (const key of Object.keys(environment)) {
    if (!byEnv.has(key)) {
      errors.push({ field: `environment.${key}`, message: `${key} is not a variable of this egg` });
    }
  }
  for (const variable of variables) {
    const given = environment[variable.envVariable];
    if (onlyGiven && given === undefined) {
      continue;
    }
    const text = given === undefined ? variable.defaultValue : asText(given);
    if (given !== undefined && text === undefined && given !== null) {
      errors.push({ field: `environment.${variable.envVariable}`, message: `${variable.envVariable} must be a string, number or boolean` });
      continue;
    }
    // The client route caps a value at the same length: no rule (regexes included) runs on unbounded input.
    if (given !== undefined && text !== undefined && text.length > ENV_VALUE_MAX_LENGTH) {
      errors.push({ field: `environment.${variable.envVariable}`, message: `${variable.envVariable} must be shorter than or equal to ${ENV_VALUE_MAX_LENGTH} characters` });
      continue;
    }
    const messages = validateValue(parseRules(variable.rules), text ?? null, variable.envVariable);
    if (messages.length > 0) {
      errors.push({ field: `environment.${variable.envVariable}`, message: messages[0] });
      continue;
    }
    if (given !== undefined) {
      values.set(variable.id, text ?? '');
    }
  }
  return { values, errors };
};
