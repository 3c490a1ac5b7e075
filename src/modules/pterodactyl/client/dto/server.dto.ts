import { IsString, MaxLength, MinLength } from 'class-validator';

export class PowerBody {
  @IsString()
  signal!: string;
}

export class CommandBody {
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  command!: string;
}
