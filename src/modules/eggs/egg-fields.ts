import { DockerImage } from 'src/modules/eggs/egg.entity';

/** Names Wings sets itself (or that the environment needs): an egg variable may not take them. */
const RESERVED_ENV_NAMES = ['TZ', 'STARTUP', 'SERVER_MEMORY', 'SERVER_IP', 'SERVER_PORT', 'SERVER_UUID', 'UUID', 'ENV', 'HOME', 'USER'];
const RESERVED_ENV_PREFIX = 'P_SERVER_';
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,190}$/;

export const envNameProblem = (name: string): string | undefined => {
  if (!ENV_NAME.test(name)) {
    return 'envVariable must be an environment variable name: letters, digits and _, not starting with a digit, at most 191 characters';
  }
  const upper = name.toUpperCase();
  if (RESERVED_ENV_NAMES.includes(upper) || upper.startsWith(RESERVED_ENV_PREFIX)) {
    return `envVariable ${name} is reserved: Wings sets it for every server`;
  }
  return undefined;
};

/**
 * Docker images arrive as PTDL's label → image map, a list of images, or a list of
 * {name, image}; they are kept as an ordered list of {name, image}.
 */
export const normalizeDockerImages = (value: unknown): DockerImage[] | string => {
  if (Array.isArray(value)) {
    const images = value.map((v: unknown) =>
      typeof v === 'string' ? { name: v, image: v } : (v as Partial<DockerImage> | null),
    );
    if (images.some((i) => !i || typeof i.name !== 'string' || typeof i.image !== 'string' || !i.name || !i.image)) {
      return 'dockerImages must be a list of image names or of {name, image}, or a map of name to image';
    }
    return images as DockerImage[];
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.some(([name, image]) => !name || typeof image !== 'string' || !image)) {
      return 'dockerImages must map each name to a non-empty image';
    }
    return entries.map(([name, image]) => ({ name, image: image as string }));
  }
  return 'dockerImages must be a list of image names or of {name, image}, or a map of name to image';
};

export const duplicateImageName = (images: DockerImage[]): string | undefined => {
  const seen = new Set<string>();
  for (const { name } of images) {
    if (seen.has(name)) {
      return name;
    }
    seen.add(name);
  }
  return undefined;
};

/** `configStartup` and `configLogs` are JSON: an object is stored as formatted text, a string must parse. */
export const jsonText = (value: unknown): string | undefined => {
  if (typeof value === 'string') {
    try {
      JSON.parse(value);
      return value;
    } catch {
      return undefined;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return JSON.stringify(value, null, 4);
  }
  return undefined;
};
