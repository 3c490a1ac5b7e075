import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { flattenValidationErrors } from 'src/common/validation/validation.pipe';
import { CreateUserDto } from 'src/modules/users/dto/create-user.dto';

/** Runs the same validation as POST /api/admin/users on the CLI's input. */
export const validateCliUser = async (input: Record<string, unknown>): Promise<CreateUserDto> => {
  const dto = plainToInstance(CreateUserDto, input);
  const errors = flattenValidationErrors(await validate(dto, { whitelist: true, forbidNonWhitelisted: true }));
  if (errors.length > 0) {
    throw new Error(errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  }
  return dto;
};
