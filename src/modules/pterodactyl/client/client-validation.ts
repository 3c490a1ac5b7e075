import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import type { PterodactylFieldError } from 'src/common/errors/pterodactyl-error-body';
import { pterodactylValidationError } from 'src/modules/pterodactyl/common/pterodactyl-body';

/**
 * A body as Hatchery's own DTO, checked by Hatchery's own rules (the client API never accepts what
 * Hatchery's API would refuse); a failure is a 422 naming Pterodactyl's field (`fieldOf`).
 */
export const asHatchery = <T extends object>(cls: new () => T, plain: object, fieldOf: (path: string) => string = (p) => p): T => {
  const instance = plainToInstance(cls, plain);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: false });
  if (errors.length > 0) {
    const flat = (list: ValidationError[], parent = ''): PterodactylFieldError[] =>
      list.flatMap((e) => {
        const path = parent ? `${parent}.${e.property}` : e.property;
        const own = Object.entries(e.constraints ?? {})
          .slice(0, 1)
          .map(([rule, detail]) => ({ field: fieldOf(path), rule, detail }));
        return [...own, ...flat(e.children ?? [], path)];
      });
    throw pterodactylValidationError(flat(errors));
  }
  return instance;
};
