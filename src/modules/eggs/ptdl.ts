import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import type { FieldError } from 'src/common/validation/validation.pipe';
import { DockerImage, EggEntity } from 'src/modules/eggs/egg.entity';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { duplicateImageName, envNameProblem } from 'src/modules/eggs/egg-fields';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { parseRules, RuleParseError } from 'src/modules/eggs/rules/variable-rules';

/** The PTDL egg document, as Pterodactyl exports it (docs/wings.md#eggs). */
export interface PtdlDocument {
  _comment: string;
  meta: { version: 'PTDL_v2'; update_url: string | null };
  exported_at: string;
  name: string;
  author: string;
  description: string | null;
  features: string[] | null;
  docker_images: Record<string, string>;
  file_denylist: string[];
  startup: string;
  /** Not in Pterodactyl's export; written only when true, so a plain egg exports as Pterodactyl does. */
  force_outgoing_ip?: true;
  config: { files: string; startup: string; logs: string; stop: string | null };
  scripts: { installation: { script: string | null; container: string; entrypoint: string } };
  variables: {
    name: string;
    description: string;
    env_variable: string;
    default_value: string;
    user_viewable: boolean;
    user_editable: boolean;
    rules: string;
    field_type: 'text';
  }[];
}

const PTDL_COMMENT = 'DO NOT EDIT: FILE GENERATED AUTOMATICALLY BY PTERODACTYL PANEL - PTERODACTYL.IO';

type EggFields = Pick<
  EggEntity,
  | 'name'
  | 'author'
  | 'description'
  | 'features'
  | 'dockerImage'
  | 'dockerImages'
  | 'fileDenylist'
  | 'startup'
  | 'configFiles'
  | 'configStartup'
  | 'configLogs'
  | 'configStop'
  | 'scriptContainer'
  | 'scriptEntry'
  | 'scriptInstall'
  | 'updateUrl'
  | 'forceOutgoingIp'
>;
type VariableFields = Pick<
  EggVariableEntity,
  'name' | 'description' | 'envVariable' | 'defaultValue' | 'userViewable' | 'userEditable' | 'rules'
>;

/** Carbon's toAtomString: `2024-05-07T12:55:55+00:00`. */
const atom = (date: Date): string => `${date.toISOString().slice(0, 19)}+00:00`;

/** The export of an egg whose install script is already resolved (copyScriptFrom followed). */
export const toPtdl = (egg: EggFields, variables: VariableFields[], exportedAt: Date): PtdlDocument => ({
  _comment: PTDL_COMMENT,
  meta: { version: 'PTDL_v2', update_url: egg.updateUrl },
  exported_at: atom(exportedAt),
  name: egg.name,
  author: egg.author,
  description: egg.description,
  features: egg.features,
  docker_images: Object.fromEntries(egg.dockerImages.map((i) => [i.name, i.image])),
  file_denylist: egg.fileDenylist,
  startup: egg.startup,
  ...(egg.forceOutgoingIp ? { force_outgoing_ip: true as const } : {}),
  config: { files: egg.configFiles, startup: egg.configStartup, logs: egg.configLogs, stop: egg.configStop },
  scripts: { installation: { script: egg.scriptInstall, container: egg.scriptContainer, entrypoint: egg.scriptEntry } },
  variables: variables.map((v) => ({
    name: v.name,
    description: v.description,
    env_variable: v.envVariable,
    default_value: v.defaultValue,
    user_viewable: v.userViewable,
    user_editable: v.userEditable,
    rules: v.rules,
    field_type: 'text',
  })),
});

export const serializePtdl = (doc: PtdlDocument): string => `${JSON.stringify(doc, null, 4)}\n`;

type Json = Record<string, unknown>;

/** Reads a PTDL_v1 or PTDL_v2 document; every problem is reported at once as VALIDATION_FAILED. */
export const parsePtdl = (input: unknown): { egg: EggFields; variables: VariableFields[] } => {
  const doc = isObject(input) ? input : {};
  const version = isObject(doc.meta) ? doc.meta.version : undefined;
  if (version !== 'PTDL_v1' && version !== 'PTDL_v2') {
    throw new AppException(EggError.UNSUPPORTED_VERSION, {
      message: `Only PTDL_v1 and PTDL_v2 egg documents can be imported (meta.version is ${JSON.stringify(version ?? null)})`,
    });
  }
  const errors: FieldError[] = [];
  const r = new Reader(errors);
  const config = r.object(doc, 'config');
  const scripts = r.object(r.object(doc, 'scripts'), 'installation', 'scripts.installation');
  const dockerImages = readImages(doc, errors);
  const egg: EggFields = {
    name: r.string(doc, 'name', { min: 1, max: 255 }),
    author: r.string(doc, 'author', { min: 1, max: 191 }),
    description: r.nullableString(doc, 'description'),
    features: doc.features === undefined || doc.features === null ? null : r.stringList(doc, 'features'),
    dockerImage: dockerImages[0]?.image ?? '',
    dockerImages,
    fileDenylist: doc.file_denylist === undefined || doc.file_denylist === null ? [] : r.stringList(doc, 'file_denylist').filter((s) => s !== ''),
    startup: r.string(doc, 'startup', { min: 1 }),
    configFiles: r.jsonText(config, 'files', 'config.files'),
    configStartup: r.jsonText(config, 'startup', 'config.startup'),
    configLogs: r.jsonText(config, 'logs', 'config.logs'),
    configStop: config.stop === undefined ? null : r.nullableString(config, 'stop', 'config.stop', 191),
    scriptInstall: r.nullableString(scripts, 'script', 'scripts.installation.script'),
    scriptContainer: r.string(scripts, 'container', { min: 1, label: 'scripts.installation.container' }),
    scriptEntry: r.string(scripts, 'entrypoint', { min: 1, max: 191, label: 'scripts.installation.entrypoint' }),
    updateUrl: isObject(doc.meta) && typeof doc.meta.update_url === 'string' ? doc.meta.update_url : null,
    forceOutgoingIp: doc.force_outgoing_ip === undefined || doc.force_outgoing_ip === null ? false : r.bool(doc, 'force_outgoing_ip', 'force_outgoing_ip'),
  };
  const variables = (Array.isArray(doc.variables) ? doc.variables : []).map((raw: unknown, i) => readVariable(raw, i, r, errors));
  if (doc.variables !== undefined && !Array.isArray(doc.variables)) {
    errors.push({ field: 'variables', message: 'variables must be a list' });
  }
  const envs = variables.map((v) => v.envVariable);
  envs.forEach((env, i) => {
    if (envs.indexOf(env) !== i) {
      errors.push({ field: `variables.${i}.env_variable`, message: `env_variable ${env} appears twice` });
    }
  });
  if (errors.length > 0) {
    throw new AppException(CommonError.VALIDATION_FAILED, { details: errors });
  }
  return { egg, variables };
};

const readImages = (doc: Json, errors: FieldError[]): DockerImage[] => {
  let images: DockerImage[] = [];
  if (isObject(doc.docker_images)) {
    images = Object.entries(doc.docker_images).map(([name, image]) => ({ name, image: typeof image === 'string' ? image : '' }));
  } else if (Array.isArray(doc.images)) {
    // PTDL_v1: a list of images, each its own label.
    images = doc.images.map((image: unknown) => ({ name: String(image), image: typeof image === 'string' ? image : '' }));
  } else if (typeof doc.image === 'string') {
    images = [{ name: doc.image, image: doc.image }];
  }
  if (images.length === 0 || images.some((i) => i.name === '' || i.image === '')) {
    errors.push({ field: 'docker_images', message: 'docker_images must map at least one name to a non-empty image' });
  }
  const duplicate = duplicateImageName(images);
  if (duplicate !== undefined) {
    errors.push({ field: 'docker_images', message: `docker_images has the name "${duplicate}" twice` });
  }
  return images;
};

const readVariable = (raw: unknown, i: number, r: Reader, errors: FieldError[]): VariableFields => {
  const v = isObject(raw) ? raw : {};
  const at = (key: string): string => `variables.${i}.${key}`;
  const variable: VariableFields = {
    name: r.string(v, 'name', { min: 1, max: 191, label: at('name') }),
    description: r.nullableString(v, 'description', at('description')) ?? '',
    envVariable: r.string(v, 'env_variable', { min: 1, max: 191, label: at('env_variable') }),
    defaultValue: r.scalarText(v, 'default_value', at('default_value')),
    userViewable: r.bool(v, 'user_viewable', at('user_viewable')),
    userEditable: r.bool(v, 'user_editable', at('user_editable')),
    rules: r.nullableString(v, 'rules', at('rules')) ?? '',
  };
  const envProblem = envNameProblem(variable.envVariable);
  if (variable.envVariable && envProblem) {
    errors.push({ field: at('env_variable'), message: envProblem });
  }
  try {
    parseRules(variable.rules);
  } catch (e) {
    // The index in `field` is hard to map back in a long document; the variable's name is not.
    const reason = e instanceof RuleParseError ? e.message : String(e);
    errors.push({ field: at('rules'), message: variable.envVariable ? `rules of ${variable.envVariable}: ${reason}` : reason });
  }
  return variable;
};

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Typed reads that record a field error instead of throwing, so one response lists them all. */
class Reader {
  constructor(private readonly errors: FieldError[]) {}

  object(parent: Json, key: string, label = key): Json {
    const value = parent[key];
    if (!isObject(value)) {
      this.errors.push({ field: label, message: `${label} must be an object` });
      return {};
    }
    return value;
  }

  string(parent: Json, key: string, opts: { min?: number; max?: number; label?: string } = {}): string {
    const label = opts.label ?? key;
    const value = parent[key];
    if (typeof value !== 'string') {
      this.errors.push({ field: label, message: `${label} must be a string` });
      return '';
    }
    if (opts.min !== undefined && value.length < opts.min) {
      this.errors.push({ field: label, message: `${label} must not be empty` });
    }
    if (opts.max !== undefined && value.length > opts.max) {
      this.errors.push({ field: label, message: `${label} must be at most ${opts.max} characters` });
    }
    return value;
  }

  nullableString(parent: Json, key: string, label = key, max?: number): string | null {
    const value = parent[key];
    if (value === null || value === undefined) {
      return null;
    }
    return this.string(parent, key, { label, max });
  }

  stringList(parent: Json, key: string): string[] {
    const value = parent[key];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      this.errors.push({ field: key, message: `${key} must be a list of strings` });
      return [];
    }
    return value as string[];
  }

  /** A value that becomes an environment string: text, a number or a boolean (older eggs write `25565`). */
  scalarText(parent: Json, key: string, label: string): string {
    const value = parent[key];
    if (value === null || value === undefined) {
      return '';
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      return String(value);
    }
    this.errors.push({ field: label, message: `${label} must be a string` });
    return '';
  }

  bool(parent: Json, key: string, label: string): boolean {
    const value = parent[key];
    if (typeof value !== 'boolean') {
      this.errors.push({ field: label, message: `${label} must be a boolean` });
      return false;
    }
    return value;
  }

  /** PTDL keeps config values as JSON-encoded strings; they must parse. */
  jsonText(parent: Json, key: string, label: string): string {
    const value = parent[key];
    if (value === undefined || value === null) {
      return '{}';
    }
    if (typeof value !== 'string') {
      this.errors.push({ field: label, message: `${label} must be a JSON-encoded string` });
      return '{}';
    }
    try {
      JSON.parse(value);
    } catch {
      this.errors.push({ field: label, message: `${label} must hold valid JSON` });
    }
    return value;
  }
}
