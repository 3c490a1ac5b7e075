import { describe, expect, it } from 'vitest';
import { recoveryCodesFile, recoveryCodesFileName } from '@/features/account/recovery-codes';

describe('recovery codes file', () => {
  it('should hold the heading, the account and one code a line', () => {
    expect(recoveryCodesFile(['aaaa-bbbb', 'cccc-dddd'], 'me@example.test', 'Codes')).toBe('Codes\nme@example.test\n\naaaa-bbbb\ncccc-dddd\n');
  });

  it('should name the file after the account, safe for any file system', () => {
    expect(recoveryCodesFileName('user_1.a-b')).toBe('hatchery-recovery-codes-user_1.a-b.txt');
    expect(recoveryCodesFileName('a/b\\c:d e')).toBe('hatchery-recovery-codes-a_b_c_d_e.txt');
  });
});
