import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';

export class UpdateStartupVariableDto {
  @ApiProperty({ example: 'SERVER_JARFILE' })
  @IsString()
  @MaxLength(191)
  key!: string;

  /** Checked against the variable's rules; capped so that no rule (regexes included) runs on huge input. */
  @ApiProperty({ example: 'paper.jar', nullable: true })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(4096)
  value!: string | null;
}

export class UpdateDockerImageDto {
  @ApiProperty({ example: 'ghcr.io/pterodactyl/yolks:java_21', description: "One of the images the server's egg offers (`dockerImages[].image` of the startup route)" })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  dockerImage!: string;
}

export class RenameServerDto {
  @ApiProperty({ example: 'Survival' })
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  @ApiProperty({ required: false, nullable: true })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(1024)
  description?: string | null;
}

export class StartupVariableDto {
  name!: string;
  description!: string;
  envVariable!: string;
  defaultValue!: string;
  serverValue!: string;
  isEditable!: boolean;
  rules!: string;
}

export class StartupDto {
  /** The startup command with the server's values; variables the user may not see show as [hidden]. */
  startup!: string;
  rawStartup!: string;
  dockerImage!: string;
  dockerImages!: DockerImageChoiceDto[];
  variables!: StartupVariableDto[];
}

/** The notes of one of the server's allocations; null (or only spaces) clears them. */
export class UpdateAllocationNotesDto {
  @ApiProperty({ example: 'Voice chat', nullable: true, maxLength: 191 })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(191)
  notes!: string | null;
}

export class NetworkAllocationDto {
  id!: string;
  ip!: string;
  alias!: string | null;
  port!: number;
  notes!: string | null;
  isDefault!: boolean;
}

export class DockerImageChoiceDto {
  name!: string;
  image!: string;
}
