import type { DockerImage } from '@/features/admin-eggs/api';

// The pure parts of the egg pages: reading an egg file, the docker image rows and the JSON fields,
// each answering a problem key (under adminEggs.problems) instead of throwing.

export type EggFileProblem = 'notJson' | 'notObject' | 'tooLarge';

/** The panel reads at most this much of an egg from a URL; a file is held to the same. */
export const EGG_FILE_MAX_BYTES = 1024 * 1024;

/** The egg document in a file's text, or why it cannot be one (the version is the panel's to check). */
export const readEggDocument = (text: string): { document: Record<string, unknown> } | { problem: EggFileProblem } => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { problem: 'notJson' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { problem: 'notObject' };
  }
  return { document: parsed as Record<string, unknown> };
};

/** One row of the images editor: `isDefault` marks the egg's dockerImage. */
export interface ImageRow {
  name: string;
  image: string;
  isDefault: boolean;
}

export const imageRows = (dockerImage: string, images: DockerImage[]): ImageRow[] => {
  const rows = images.map((i) => ({ ...i, isDefault: i.image === dockerImage }));
  // The panel keeps the default in the list; an older row set may still lack it.
  if (!rows.some((r) => r.isDefault)) {
    rows.unshift({ name: dockerImage, image: dockerImage, isDefault: true });
  }
  // Two names on one image: only the first is the default.
  let seen = false;
  return rows.map((r) => {
    const isDefault = r.isDefault && !seen;
    seen ||= isDefault;
    return { ...r, isDefault };
  });
};

type ImagesProblem = 'imagesEmpty' | 'imageBlank' | 'imageNameTaken' | 'imageNoDefault';

/** The rows as the PATCH body wants them, or the first thing wrong with them. */
export const imagesBody = (rows: ImageRow[]): { dockerImage: string; dockerImages: DockerImage[] } | { problem: ImagesProblem; row?: number } => {
  if (rows.length === 0) {
    return { problem: 'imagesEmpty' };
  }
  const names = new Set<string>();
  for (const [i, r] of rows.entries()) {
    if (!r.name.trim() || !r.image.trim()) {
      return { problem: 'imageBlank', row: i };
    }
    if (names.has(r.name.trim())) {
      return { problem: 'imageNameTaken', row: i };
    }
    names.add(r.name.trim());
  }
  const def = rows.find((r) => r.isDefault);
  if (!def) {
    return { problem: 'imageNoDefault' };
  }
  return { dockerImage: def.image.trim(), dockerImages: rows.map((r) => ({ name: r.name.trim(), image: r.image.trim() })) };
};

/** A config field as editor text: JSON the panel answered parsed is laid out again, text stays as it was. */
export const configText = (value: unknown): string => {
  if (typeof value === 'string') {
    return value;
  }
  return JSON.stringify(value ?? {}, null, 4);
};

type JsonProblem = 'jsonInvalid' | 'jsonNotObject';

/** Why the panel would refuse this JSON text (configFiles must be an object; startup and logs any JSON). */
export const jsonProblem = (text: string, objectOnly: boolean): JsonProblem | undefined => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'jsonInvalid';
  }
  return objectOnly && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) ? 'jsonNotObject' : undefined;
};

/** One entry per line, blank lines dropped (features, file denylist). */
export const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
