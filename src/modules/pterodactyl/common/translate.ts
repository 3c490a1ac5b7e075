import { AppException } from 'src/common/errors/app.exception';

/**
 * Runs `work` and replaces Hatchery errors whose code is named with the layer's own (a taken e-mail
 * is Pterodactyl's 422 `unique` on the field, not Hatchery's 409).
 */
export const translating = async <T>(work: Promise<T>, byCode: Record<string, () => Error>): Promise<T> => {
  try {
    return await work;
  } catch (e) {
    const replace = e instanceof AppException ? byCode[e.code] : undefined;
    throw replace ? replace() : e;
  }
};
