import { withinGrace } from 'src/common/shutdown/within-grace';

describe('withinGrace', () => {
  it('should say the work finished when it settles inside the grace, rejected or not', async () => {
    await expect(withinGrace(Promise.resolve('done'), 1_000)).resolves.toBe(true);
    await expect(withinGrace(Promise.reject(new Error('failed')), 1_000)).resolves.toBe(true);
  });

  it('should give up once the grace runs out, without waiting for work that never ends', async () => {
    const never = new Promise<void>(() => undefined);
    await expect(withinGrace(never, 50)).resolves.toBe(false);
  });
});
