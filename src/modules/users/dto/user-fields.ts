import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, Matches, MaxLength, MinLength } from 'class-validator';

const lower = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));

/** Lower-case letters, digits, `_`, `.` and `-`; SFTP logins are `<username>.<server uuid>`. */
export const IsUsername = (): PropertyDecorator =>
  applyDecorators(
    lower,
    IsString(),
    Matches(/^[a-z0-9][a-z0-9_.-]{0,190}$/, {
      message: 'username must be 1 to 191 characters of a-z, 0-9, _, . and -, starting with a letter or digit',
    }),
  );

export const IsAccountEmail = (): PropertyDecorator => applyDecorators(lower, IsEmail(), MaxLength(191));

export const IsPassword = (): PropertyDecorator => applyDecorators(IsString(), MinLength(8), MaxLength(256));

export const IsDisplayName = (): PropertyDecorator => applyDecorators(IsString(), MaxLength(255));
