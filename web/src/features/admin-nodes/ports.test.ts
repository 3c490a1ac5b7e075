import { describe, expect, it } from 'vitest';
import { parsePorts } from '@/features/admin-nodes/ports';

describe('parsePorts', () => {
  it('should take single ports and ranges separated by commas or spaces, and count the ports', () => {
    expect(parsePorts('25565, 25570-25580  25590')).toEqual({ ports: ['25565', '25570-25580', '25590'], count: 13 });
    expect(parsePorts('')).toEqual({ ports: [], count: 0 });
  });

  it.each([
    ['25565-', 'invalid'],
    ['abc', 'invalid'],
    ['80', 'range'],
    ['70000', 'range'],
    ['25580-25570', 'range'],
    ['20000-21000', 'tooMany'],
  ])('should refuse %s as %s', (input, error) => {
    expect(parsePorts(input)).toEqual({ error });
  });

  it('should take a range of exactly 1000 ports', () => {
    expect(parsePorts('20000-20999')).toEqual({ ports: ['20000-20999'], count: 1000 });
  });
});
