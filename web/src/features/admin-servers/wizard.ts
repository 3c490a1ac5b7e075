import type { CreateServerBody, Egg } from '@/features/admin-servers/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';

/** The wizard's steps, in order; the review comes last. */
export const STEPS = ['details', 'node', 'egg', 'variables', 'limits', 'review'] as const;
export type Step = (typeof STEPS)[number];

/** The value of the image select that opens the custom image field. */
export const CUSTOM_IMAGE = '__custom__';

/** What the wizard holds; numbers stay as typed until the body is built. */
export interface WizardForm {
  name: string;
  description: string;
  ownerId: string;
  nodeId: string;
  allocationId: string;
  extraAllocationIds: string[];
  nestId: string;
  eggId: string;
  /** An image of the egg, or CUSTOM_IMAGE. */
  image: string;
  customImage: string;
  startup: string;
  skipScripts: boolean;
  environment: Record<string, string>;
  memory: number | string;
  swap: number | string;
  disk: number | string;
  cpu: number | string;
  io: number | string;
  threads: string;
  oomKiller: boolean;
  databaseLimit: number | string;
  allocationLimit: number | string;
  backupLimit: number | string;
  startOnCompletion: boolean;
}

export const emptyForm = (): WizardForm => ({
  name: '',
  description: '',
  ownerId: '',
  nodeId: '',
  allocationId: '',
  extraAllocationIds: [],
  nestId: '',
  eggId: '',
  image: '',
  customImage: '',
  startup: '',
  skipScripts: false,
  environment: {},
  memory: 1024,
  swap: 0,
  disk: 5120,
  cpu: 100,
  io: 500,
  threads: '',
  oomKiller: false,
  databaseLimit: 0,
  allocationLimit: 0,
  backupLimit: 0,
  startOnCompletion: true,
});

/** Choosing an egg fills in its default image, startup command and variable defaults. */
export const withEgg = (form: WizardForm, egg: Egg): WizardForm => ({
  ...form,
  eggId: egg.id,
  image: egg.dockerImages.some((d) => d.image === egg.dockerImage) ? egg.dockerImage : (egg.dockerImages[0]?.image ?? CUSTOM_IMAGE),
  customImage: egg.dockerImages.length === 0 ? egg.dockerImage : '',
  startup: egg.startup,
  environment: Object.fromEntries(egg.variables.map((v) => [v.envVariable, v.defaultValue])),
});

const FIELD_STEPS: Record<string, Step> = {
  name: 'details',
  description: 'details',
  owner_id: 'details',
  node_id: 'node',
  allocation_id: 'node',
  additional_allocation_ids: 'node',
  egg_id: 'egg',
  docker_image: 'egg',
  startup: 'egg',
  skip_scripts: 'egg',
  environment: 'variables',
};

/** The step that shows a field of the creation body (`environment.X` is on the variables step; limits otherwise). */
export const stepOfField = (field: string): Step => FIELD_STEPS[field] ?? FIELD_STEPS[field.split('.')[0]] ?? 'limits';

const CODE_FIELDS: Record<string, string> = {
  USER_NOT_FOUND: 'owner_id',
  NODE_NOT_FOUND: 'node_id',
  ALLOCATION_UNAVAILABLE: 'allocation_id',
  NO_FREE_ALLOCATION: 'allocation_id',
  EGG_NOT_FOUND: 'egg_id',
};

/**
 * Where a refused creation belongs: the field errors of VALIDATION_FAILED, or the field an error code
 * is about (keyed by the body's field names), and the first step holding one of them. Errors about no
 * field (the daemon refusing, say) stay on the review.
 */
export const placeError = (error: unknown, describe: (error: ApiError) => string): { fields: Record<string, string>; step: Step } => {
  if (!(error instanceof ApiError)) {
    return { fields: {}, step: 'review' };
  }
  const fields = fieldErrors(error);
  const byCode = CODE_FIELDS[error.code];
  if (byCode) {
    fields[byCode] = describe(error);
  }
  const steps = Object.keys(fields).map((f) => STEPS.indexOf(stepOfField(f)));
  return { fields, step: steps.length > 0 ? STEPS[Math.min(...steps)] : 'review' };
};

const int = (value: number | string): number => (typeof value === 'number' ? value : Number(value));

/** The creation body from the wizard's fields. */
export const toCreateBody = (form: WizardForm): CreateServerBody => ({
  name: form.name.trim(),
  ...(form.description.trim() ? { description: form.description.trim() } : {}),
  owner_id: form.ownerId,
  node_id: form.nodeId,
  egg_id: form.eggId,
  memory: int(form.memory),
  swap: int(form.swap),
  disk: int(form.disk),
  cpu: int(form.cpu),
  io: int(form.io),
  ...(form.threads.trim() ? { threads: form.threads.trim() } : {}),
  oom_disabled: !form.oomKiller,
  allocation_id: form.allocationId,
  additional_allocation_ids: form.extraAllocationIds.filter((id) => id !== form.allocationId),
  environment: form.environment,
  startup: form.startup,
  docker_image: form.image === CUSTOM_IMAGE ? form.customImage.trim() : form.image,
  database_limit: int(form.databaseLimit),
  allocation_limit: int(form.allocationLimit),
  backup_limit: int(form.backupLimit),
  skip_scripts: form.skipScripts,
  start_on_completion: form.startOnCompletion,
});

/** Something the review points out without refusing it: a feature the server is created without. */
type ReviewWarning = { key: 'databases' | 'backups' | 'addresses'; limit: number };

/**
 * What the review warns about: no databases or backups at a limit of 0, and a server left with its primary
 * address alone when its users cannot add one (the allocation limit counts every address, the primary too).
 * A limit still being typed (not a whole number) warns of nothing; the limits step refuses it.
 */
export const reviewWarnings = (form: WizardForm): ReviewWarning[] => {
  const warnings: ReviewWarning[] = [];
  const zero = (value: number | string) => value !== '' && int(value) === 0;
  if (zero(form.databaseLimit)) {
    warnings.push({ key: 'databases', limit: 0 });
  }
  if (zero(form.backupLimit)) {
    warnings.push({ key: 'backups', limit: 0 });
  }
  const extras = form.extraAllocationIds.filter((id) => id !== form.allocationId);
  const addressLimit = int(form.allocationLimit);
  if (extras.length === 0 && form.allocationLimit !== '' && Number.isInteger(addressLimit) && addressLimit <= 1) {
    warnings.push({ key: 'addresses', limit: addressLimit });
  }
  return warnings;
};

/** A whole number within bounds, or the key of what is wrong with it. */
export const intProblem = (value: number | string, min: number, max: number): 'required' | 'integer' | 'range' | null => {
  if (value === '' || value === undefined) {
    return 'required';
  }
  const n = int(value);
  if (!Number.isInteger(n)) {
    return 'integer';
  }
  return n < min || n > max ? 'range' : null;
};

/** The bounds of CreateServerDto. */
export const LIMIT_BOUNDS = {
  memory: [0, 2_147_483_647],
  swap: [-1, 2_147_483_647],
  disk: [0, 2_147_483_647],
  cpu: [0, 100_000],
  io: [10, 1000],
  database_limit: [-1, 1000],
  allocation_limit: [0, 1000],
  backup_limit: [0, 1000],
} as const;

/** A cpuset as the backend takes it: `0-1,3`. */
export const THREADS = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;
