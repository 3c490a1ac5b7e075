import { ArrayMaxSize, IsArray, IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';

export class StoreDatabaseBody {
  @IsString()
  database!: string;

  @IsString()
  remote!: string;
}

export class AllocationNotesBody {
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(191)
  notes?: string | null;
}

export class StoreSubuserBody {
  @IsEmail()
  @MaxLength(191)
  email!: string;

  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  permissions!: string[];
}

export class UpdateSubuserBody {
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  permissions!: string[];
}

export class StartupVariableBody {
  @IsString()
  key!: string;

  @Optional({ nullable: true })
  @IsString()
  value?: string | null;
}

export class DockerImageBody {
  @IsString()
  @MaxLength(255)
  docker_image!: string;
}

export class RenameBody {
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(65_535)
  description?: string | null;
}
