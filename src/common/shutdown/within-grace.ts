/**
 * Waits for `work`, but no longer than `graceMs`: shutdown must end even when a node never answers
 * or a task hangs. Resolves `true` when the work finished in time, `false` when the grace ran out
 * (the work is left to the process' exit). Never rejects; the timer never keeps the process alive.
 */
export const withinGrace = async (work: Promise<unknown>, graceMs: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
    timer.unref();
  });
  try {
    return await Promise.race([work.then(() => true as const, () => true as const), grace]);
  } finally {
    clearTimeout(timer);
  }
};
