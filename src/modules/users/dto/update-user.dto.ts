import { PartialType } from '@nestjs/swagger';
import { CreateUserDto } from 'src/modules/users/dto/create-user.dto';

// Explicit nulls are refused: every field is optional, none is nullable.
export class UpdateUserDto extends PartialType(CreateUserDto, { skipNullProperties: false }) {}
