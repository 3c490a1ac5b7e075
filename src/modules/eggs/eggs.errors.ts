import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const EggError = {
  NOT_FOUND: { code: 'EGG_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Egg not found' },
  IN_USE: { code: 'EGG_IN_USE', category: ErrorCategory.CONFLICT, message: 'The egg is used by servers and cannot be deleted' },
  HAS_DEPENDENTS: {
    code: 'EGG_HAS_DEPENDENTS',
    category: ErrorCategory.CONFLICT,
    message: 'Other eggs copy their install script from this egg; change them first',
  },
  SCRIPT_SOURCE_INVALID: {
    code: 'EGG_SCRIPT_SOURCE_INVALID',
    category: ErrorCategory.BAD_REQUEST,
    message: 'copyScriptFrom must name another egg of the same nest that has its own install script',
  },
  UNSUPPORTED_VERSION: {
    code: 'EGG_IMPORT_UNSUPPORTED_VERSION',
    category: ErrorCategory.BAD_REQUEST,
    message: 'Only PTDL_v1 and PTDL_v2 egg documents can be imported',
  },
  IMPORT_NOT_JSON: { code: 'EGG_IMPORT_NOT_JSON', category: ErrorCategory.BAD_REQUEST, message: 'The URL did not return a JSON document' },
  NO_UPDATE_URL: { code: 'EGG_NO_UPDATE_URL', category: ErrorCategory.CONFLICT, message: 'The egg has no update URL to update from' },
  UPDATE_URL_CHANGED: {
    code: 'EGG_UPDATE_URL_CHANGED',
    category: ErrorCategory.CONFLICT,
    message: 'The egg\'s update URL changed while the update was fetched; try again',
  },
  NEST_NOT_FOUND: { code: 'NEST_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Nest not found' },
  NEST_HAS_EGGS: { code: 'NEST_HAS_EGGS', category: ErrorCategory.CONFLICT, message: 'The nest still has eggs and cannot be deleted' },
  VARIABLE_NOT_FOUND: { code: 'EGG_VARIABLE_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Egg variable not found' },
  VARIABLE_ENV_TAKEN: {
    code: 'EGG_VARIABLE_ENV_TAKEN',
    category: ErrorCategory.CONFLICT,
    message: 'The egg already has a variable with this environment name',
  },
} satisfies Record<string, ErrorDef>;
