import { describe, expect, it } from 'vitest';
import { onlyChoice } from '@/lib/only-choice';

describe('onlyChoice', () => {
  it('should give the single item, and nothing while loading, with none or with a choice', () => {
    expect(onlyChoice([{ id: '1' }])).toEqual({ id: '1' });
    expect(onlyChoice(undefined)).toBeUndefined();
    expect(onlyChoice([])).toBeUndefined();
    expect(onlyChoice(['a', 'b'])).toBeUndefined();
  });
});
