import { describe, expect, it } from 'vitest';
import { passwordProblem } from '@/lib/password-rules';

describe('passwordProblem', () => {
  it('should refuse fewer than 8 characters', () => {
    expect(passwordProblem('1234567')).toBe('short');
  });

  it('should refuse more than 256 characters', () => {
    expect(passwordProblem('x'.repeat(257))).toBe('long');
  });

  it('should pass 8 to 256 characters', () => {
    expect(passwordProblem('12345678')).toBeNull();
    expect(passwordProblem('x'.repeat(256))).toBeNull();
  });
});
