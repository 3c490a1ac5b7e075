/** The text file of recovery codes the user downloads: what they are for, then one code a line. */
export const recoveryCodesFile = (codes: readonly string[], account: string, heading: string): string =>
  [heading, account, '', ...codes, ''].join('\n');

/** The name of that file: the panel's name and the account, safe for any file system. */
export const recoveryCodesFileName = (account: string): string => `hatchery-recovery-codes-${account.replace(/[^A-Za-z0-9._-]+/g, '_')}.txt`;
