import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import type { DockerImage, EggEntity } from 'src/modules/eggs/egg.entity';
import type { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import type { NestEntity } from 'src/modules/eggs/nest.entity';

/** One of an egg's images, under the name the panel shows for it. */
export class EggDockerImageDto {
  name!: string;
  image!: string;
}

/** A configuration field kept as JSON text, answered parsed (or as the text when it is not JSON). */
const PARSED_JSON: ApiPropertyOptions = { oneOf: [{ type: 'object', additionalProperties: true }, { type: 'string' }] };

export class EggListItemDto {
  id!: string;
  name!: string;
  nestName!: string;
}

export class EggVariableResponseDto {
  id!: string;
  eggId!: string;
  name!: string;
  description!: string;
  envVariable!: string;
  defaultValue!: string;
  userViewable!: boolean;
  userEditable!: boolean;
  rules!: string;
  createdAt!: string;
  updatedAt!: string;
}

export class EggResponseDto {
  id!: string;
  nestId!: string;
  nestName!: string;
  name!: string;
  description!: string | null;
  author!: string;
  dockerImage!: string;
  @ApiProperty({ type: EggDockerImageDto, isArray: true })
  dockerImages!: DockerImage[];
  startup!: string;
  features!: string[] | null;
  fileDenylist!: string[];
  /** JSON text of the config file mappings. */
  configFiles!: string;
  @ApiProperty(PARSED_JSON)
  configStartup!: unknown;
  configStop!: string | null;
  @ApiProperty(PARSED_JSON)
  configLogs!: unknown;
  scriptContainer!: string;
  scriptEntry!: string;
  scriptInstall!: string | null;
  copyScriptFrom!: string | null;
  updateUrl!: string | null;
  forceOutgoingIp!: boolean;
  variables!: EggVariableResponseDto[];
  createdAt!: string;
  updatedAt!: string;
}

export class NestResponseDto {
  id!: string;
  name!: string;
  description!: string | null;
  author!: string;
  createdAt!: string;
  updatedAt!: string;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

export const toEggListItem = (egg: EggEntity & { nest: NestEntity }): EggListItemDto => ({
  id: egg.id,
  name: egg.name,
  nestName: egg.nest.name,
});

export const toEggVariableResponse = (v: EggVariableEntity): EggVariableResponseDto => ({
  id: v.id,
  eggId: v.eggId,
  name: v.name,
  description: v.description,
  envVariable: v.envVariable,
  defaultValue: v.defaultValue,
  userViewable: v.userViewable,
  userEditable: v.userEditable,
  rules: v.rules,
  createdAt: v.createdAt.toISOString(),
  updatedAt: v.updatedAt.toISOString(),
});

export const toEggResponse = (egg: EggEntity, nest: NestEntity, variables: EggVariableEntity[]): EggResponseDto => ({
  id: egg.id,
  nestId: egg.nestId,
  nestName: nest.name,
  name: egg.name,
  description: egg.description,
  author: egg.author,
  dockerImage: egg.dockerImage,
  dockerImages: egg.dockerImages,
  startup: egg.startup,
  features: egg.features,
  fileDenylist: egg.fileDenylist,
  configFiles: egg.configFiles,
  configStartup: parsed(egg.configStartup),
  configStop: egg.configStop,
  configLogs: parsed(egg.configLogs),
  scriptContainer: egg.scriptContainer,
  scriptEntry: egg.scriptEntry,
  scriptInstall: egg.scriptInstall,
  copyScriptFrom: egg.copyScriptFrom,
  updateUrl: egg.updateUrl,
  forceOutgoingIp: egg.forceOutgoingIp,
  variables: variables.map(toEggVariableResponse),
  createdAt: egg.createdAt.toISOString(),
  updatedAt: egg.updatedAt.toISOString(),
});

export const toNestResponse = (nest: NestEntity): NestResponseDto => ({
  id: nest.id,
  name: nest.name,
  description: nest.description,
  author: nest.author,
  createdAt: nest.createdAt.toISOString(),
  updatedAt: nest.updatedAt.toISOString(),
});
