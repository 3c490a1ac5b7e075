import * as bcrypt from 'bcryptjs';
import { randomString, sha256Hex } from 'src/common/crypto/tokens';

export const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: codes are read off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** A code such as `k7pq-x3mn-a9fz`: 12 characters of a 31-letter alphabet, about 59 bits. */
export const newRecoveryCode = (): string =>
  Array.from({ length: GROUPS }, () => randomString(GROUP_LENGTH, ALPHABET)).join('-');

/** Case, spaces and dashes do not matter when a code is typed back. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');

/** What is stored: the code hashed together with its owner, so equal codes of two users never share a hash. */
export const hashRecoveryCode = (userId: string, code: string): string => sha256Hex(`recovery:${userId}:${normalizeRecoveryCode(code)}`);

/**
 * A recovery code carried over from Pterodactyl is stored as its bcrypt hash (`$2y$…`): ten letters and
 * digits whose case matters, so only surrounding spaces are ignored.
 */
export const IMPORTED_RECOVERY_CODE_PREFIX = '$2';

/** Whether `code` is the one `hash`, an imported bcrypt hash, was made of. */
export const matchesImportedRecoveryCode = (hash: string, code: string): Promise<boolean> => bcrypt.compare(code.trim(), hash).catch(() => false);

/** A sign-in code is a TOTP code when it is six digits; anything else is tried as a recovery code. */
export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code);
