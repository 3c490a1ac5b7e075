import { ApiProperty, getSchemaPath, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, IsUrl, IsUUID, MaxLength, MinLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import type { DockerImage } from 'src/modules/eggs/egg.entity';
import { EggDockerImageDto } from 'src/modules/eggs/dto/egg-response.dto';
import { IsDockerImages, IsJsonText } from 'src/modules/eggs/dto/egg-validators';

// class-validator checks stacked decorators bottom-up and the pipe reports only the first failure,
// so the type check sits lowest: a missing or mistyped field is told so, not that it is too long.
export class CreateEggDto {
  @IsUUID()
  nestId!: string;

  @MaxLength(255)
  @MinLength(1)
  @IsString()
  name!: string;

  @Optional({ nullable: true })
  @MaxLength(65_535)
  @IsString()
  description?: string | null;

  /** Author e-mail as PTDL keeps it; defaults to the creator's e-mail. */
  @Optional()
  @MaxLength(191)
  @MinLength(1)
  @IsString()
  author?: string;

  /** Default image; added to dockerImages when missing there. */
  @MaxLength(2048)
  @MinLength(1)
  @IsString()
  dockerImage!: string;

  /** `{"Java 21": "ghcr.io/...:java_21"}`, `["image", ...]` or `[{name, image}]`. */
  @ApiProperty({
    isArray: false,
    oneOf: [
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: { $ref: getSchemaPath(EggDockerImageDto) } },
    ],
  })
  @Optional()
  @IsDockerImages()
  dockerImages?: DockerImage[];

  @MaxLength(65_535)
  @MinLength(1)
  @IsString()
  startup!: string;

  @Optional({ nullable: true })
  @IsString({ each: true })
  @ArrayMaxSize(100)
  @IsArray()
  features?: string[] | null;

  @Optional()
  @IsString({ each: true })
  @ArrayMaxSize(1000)
  @IsArray()
  fileDenylist?: string[];

  /** JSON text of the config file mappings. */
  @Optional()
  @IsJsonText({ objectOnly: true })
  configFiles?: string;

  @Optional()
  @IsJsonText()
  configStartup?: string;

  @Optional({ nullable: true })
  @MaxLength(191)
  @IsString()
  configStop?: string | null;

  @Optional()
  @IsJsonText()
  configLogs?: string;

  @Optional()
  @MaxLength(2048)
  @MinLength(1)
  @IsString()
  scriptContainer?: string;

  @Optional()
  @MaxLength(191)
  @MinLength(1)
  @IsString()
  scriptEntry?: string;

  @Optional({ nullable: true })
  @MaxLength(1_000_000)
  @IsString()
  scriptInstall?: string | null;

  @Optional({ nullable: true })
  @IsUUID()
  copyScriptFrom?: string | null;

  @Optional({ nullable: true })
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  updateUrl?: string | null;

  /** Servers of this egg send outgoing traffic from their allocation's IP; defaults to false. */
  @Optional()
  @IsBoolean()
  forceOutgoingIp?: boolean;
}

export class UpdateEggDto extends PartialType(CreateEggDto, { skipNullProperties: false }) {}

export class ImportEggUrlDto {
  @IsUUID()
  nestId!: string;

  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  url!: string;
}
