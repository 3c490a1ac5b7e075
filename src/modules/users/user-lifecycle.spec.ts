import type { EntityManager } from 'typeorm';
import { UserLifecycle } from 'src/modules/users/user-lifecycle';

describe(UserLifecycle.name, () => {
  const manager = {} as EntityManager;

  it("should run each registered module's handlers in registration order, with the caller's manager", async () => {
    const calls: string[] = [];
    const lifecycle = new UserLifecycle();
    lifecycle.on({ signInsEnded: (m, userId, keep) => Promise.resolve(calls.push(`sessions ${userId} ${keep} ${m === manager}`)) });
    lifecycle.on({ passwordChanged: (m, userId) => Promise.resolve(calls.push(`reset links ${userId} ${m === manager}`)) });
    lifecycle.on({ passwordChanged: (m, userId) => Promise.resolve(calls.push(`challenges ${userId} ${m === manager}`)) });
    await lifecycle.passwordChanged(manager, '7');
    await lifecycle.signInsEnded(manager, '7', 'kept');
    expect(calls).toEqual(['reset links 7 true', 'challenges 7 true', 'sessions 7 kept true']);
  });

  it('should fail the step when a handler fails, so that the transaction it runs in rolls back', async () => {
    const lifecycle = new UserLifecycle();
    const failure = new Error('no');
    lifecycle.on({ passwordChanged: () => Promise.reject(failure) });
    await expect(lifecycle.passwordChanged(manager, '7')).rejects.toBe(failure);
  });
});
