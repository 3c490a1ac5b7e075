import { describe, expect, it } from 'vitest';
import { planMove, resolveTarget } from '@/features/files/move';

describe('resolveTarget', () => {
  it('should read a target relative to the folder, or absolute from the root', () => {
    expect(resolveTarget('/plugins', 'old')).toBe('/plugins/old');
    expect(resolveTarget('/plugins', '../backup/./x/')).toBe('/backup/x');
    expect(resolveTarget('/plugins', '/config')).toBe('/config');
    expect(resolveTarget('/plugins', '..')).toBe('/');
  });

  it('should refuse a target that climbs above the server root', () => {
    expect(resolveTarget('/plugins', '../..')).toBeNull();
    expect(resolveTarget('/', '/../etc')).toBeNull();
  });
});

describe('planMove', () => {
  it('should move every entry in one set of pairs, relative to the folder the rename is rooted in', () => {
    expect(planMove('/plugins', ['a.jar', 'config'], 'old')).toEqual({
      ok: true,
      target: '/plugins/old',
      files: [
        { from: 'a.jar', to: 'old/a.jar' },
        { from: 'config', to: 'old/config' },
      ],
    });
    expect(planMove('/plugins/x', ['a.jar'], '/backup')).toEqual({ ok: true, target: '/backup', files: [{ from: 'a.jar', to: '../../backup/a.jar' }] });
    expect(planMove('/plugins', ['a.jar'], '/')).toEqual({ ok: true, target: '/', files: [{ from: 'a.jar', to: '../a.jar' }] });
  });

  it('should say why a target cannot be used', () => {
    expect(planMove('/plugins', ['a.jar'], '  ')).toEqual({ ok: false, problem: 'empty' });
    expect(planMove('/plugins', ['a.jar'], '../..')).toEqual({ ok: false, problem: 'outside' });
    expect(planMove('/plugins', ['a.jar'], '.')).toEqual({ ok: false, problem: 'same' });
    expect(planMove('/plugins', ['a.jar'], '/plugins/')).toEqual({ ok: false, problem: 'same' });
    expect(planMove('/plugins', ['a.jar', 'config'], 'config/old')).toEqual({ ok: false, problem: 'intoItself' });
    expect(planMove('/plugins', ['config'], 'config')).toEqual({ ok: false, problem: 'intoItself' });
    // A sibling whose name starts the same is another folder.
    expect(planMove('/plugins', ['config'], 'configs')).toMatchObject({ ok: true });
  });
});
