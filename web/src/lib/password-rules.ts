// The panel's password rule (IsPassword in src/modules/users/dto/user-fields.ts): 8 to 256 characters.
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 256;

/** What is wrong with a new password, checked before sending; null when it passes. */
export const passwordProblem = (password: string): 'short' | 'long' | null =>
  password.length < PASSWORD_MIN ? 'short' : password.length > PASSWORD_MAX ? 'long' : null;
