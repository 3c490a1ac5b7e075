// Bearer check and JWT rules (docs/wings.md#authentication).
import { timingSafeEqual } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { JsonRecord, isRecord } from 'test/wings-sim/config';

type BearerResult = 'ok' | 'missing' | 'forbidden';

/** RequireAuthorization: `Bearer <node token>` only; anything else after "Bearer " is a 403. */
export function checkBearer(header: string | undefined, token: string): BearerResult {
  const value = header ?? '';
  const space = value.indexOf(' ');
  if (space < 0 || value.slice(0, space) !== 'Bearer') {
    return 'missing';
  }
  const given = Buffer.from(value.slice(space + 1));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'forbidden';
}

// Error texts the panel UI pattern-matches (Wings' websocket package and its JWT library).
const JWT_NOT_PRESENT = 'jwt: no jwt present';
const JWT_NO_CONNECT = 'jwt: missing connect permission';
const JWT_UUID_MISMATCH = 'jwt: server uuid mismatch';
const JWT_DENYLISTED = 'jwt: created too far in past (denylist)';
const JWT_EXP_INVALID = 'jwt: exp claim is invalid';
const JWT_HMAC_FAILED = 'jwt: HMAC verification failed';

/** An error Wings classes as a JWT error (`IsJwtError`): shown to the client as `jwt error`. */
export class JwtError extends Error {}

/** Any other token failure (bad signature, undecodable payload): `daemon error` / HTTP 500. */
export class TokenError extends Error {}

const NUMERIC_DATE_CLAIMS = ['exp', 'iat', 'nbf'] as const;

function rawPayload(token: string): string {
  const part = token.split('.')[1] ?? '';
  return Buffer.from(part, 'base64url').toString('utf8');
}

/** gbrlsnchs decodes dates into *int64: `1.5`, `1e9` or a string fails the whole token. */
function assertDecodable(token: string, payload: JsonRecord, stringClaims: readonly string[]): void {
  const raw = rawPayload(token);
  for (const claim of NUMERIC_DATE_CLAIMS) {
    const m = new RegExp(`"${claim}"\\s*:\\s*([^,}\\s]+)`).exec(raw);
    if (m && m[1] !== 'null' && !/^-?\d+$/.test(m[1])) {
      throw new TokenError(`jwt: cannot decode "${claim}" into int64`);
    }
  }
  for (const claim of ['iss', 'sub', 'jti', ...stringClaims]) {
    const v = payload[claim];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new TokenError(`jwt: cannot decode "${claim}" into string`);
    }
  }
  const aud = payload.aud;
  if (aud !== undefined && aud !== null && typeof aud !== 'string') {
    if (!Array.isArray(aud) || aud.some((a) => typeof a !== 'string')) {
      throw new TokenError('jwt: cannot decode "aud"');
    }
  }
}

/**
 * tokens.ParseToken: HMAC-SHA256 signature with the node token as key, then `exp` (required, ≥ now).
 * `nbf`, `iat`, `iss`, `aud` are not validated here.
 */
export function parseSignedToken(token: string, key: string, stringClaims: readonly string[] = []): JsonRecord {
  let payload: unknown;
  try {
    // Wings verifies HS256 whatever the header says; jsonwebtoken insists the header says HS256 too.
    payload = jwt.verify(token, key, { algorithms: ['HS256'], ignoreExpiration: true, ignoreNotBefore: true });
  } catch (err) {
    const message = typeof err === 'object' && err !== null && 'message' in err ? String(err.message) : '';
    throw new TokenError(/signature|algorithm/.test(message) ? JWT_HMAC_FAILED : 'jwt: malformed token');
  }
  if (!isRecord(payload)) {
    throw new TokenError('jwt: malformed token');
  }
  assertDecodable(token, payload, stringClaims);
  const exp = payload.exp;
  if (typeof exp !== 'number' || Date.now() > exp * 1000) {
    throw new JwtError(JWT_EXP_INVALID);
  }
  return payload;
}

/** Process-global one-time cache of `unique_id`s, 60 minutes. */
export class UniqueIdStore {
  private readonly seen = new Map<string, number>();

  constructor(private readonly ttlMs = 60 * 60 * 1000) {}

  /** True the first time an id is seen (an empty id counts as an id, as in Wings). */
  isUniqueRequest(id: string): boolean {
    const now = Date.now();
    const until = this.seen.get(id);
    if (until !== undefined && until > now) {
      return false;
    }
    this.seen.set(id, now + this.ttlMs);
    return true;
  }
}

/** Websocket token state shared by all sockets: boot time and the `/ws/deny` list. */
export class WebsocketTokenPolicy {
  private readonly denied = new Map<string, number>();

  constructor(
    readonly bootTimeMs: () => number,
    readonly key: () => string,
  ) {}

  deny(jti: string): void {
    this.denied.set(jti, Date.now());
  }

  isDenylisted(p: WebsocketPayload): boolean {
    if (p.iat === undefined) {
      return true;
    }
    const iatMs = p.iat * 1000;
    if (iatMs < this.bootTimeMs()) {
      return true;
    }
    const deniedAt = this.denied.get(p.jti);
    return deniedAt !== undefined && iatMs < deniedAt;
  }

  /** Exact match, or `*` — but `*` never grants `admin.*`; nothing is granted once denylisted. */
  hasPermission(p: WebsocketPayload, permission: string): boolean {
    for (const k of p.permissions) {
      if (k === permission || (!permission.startsWith('admin') && k === '*')) {
        return !this.isDenylisted(p);
      }
    }
    return false;
  }

  /** NewTokenPayload: signature, exp, denylist, connect permission (server uuid is NOT checked here). */
  parse(token: string): WebsocketPayload {
    const claims = parseSignedToken(token, this.key(), ['server_uuid', 'user_uuid']);
    const perms = claims.permissions;
    if (perms !== undefined && perms !== null && (!Array.isArray(perms) || perms.some((x) => typeof x !== 'string'))) {
      throw new TokenError('jwt: cannot decode "permissions" into []string');
    }
    const payload: WebsocketPayload = {
      exp: claims.exp as number,
      iat: typeof claims.iat === 'number' ? claims.iat : undefined,
      jti: typeof claims.jti === 'string' ? claims.jti : '',
      serverUuid: typeof claims.server_uuid === 'string' ? claims.server_uuid : '',
      userUuid: typeof claims.user_uuid === 'string' ? claims.user_uuid : '',
      permissions: Array.isArray(perms) ? (perms as string[]) : [],
    };
    if (this.isDenylisted(payload)) {
      throw new JwtError(JWT_DENYLISTED);
    }
    if (!this.hasPermission(payload, 'websocket.connect')) {
      throw new JwtError(JWT_NO_CONNECT);
    }
    return payload;
  }

  /** TokenValid: re-checked on every inbound and outbound event. Returns the error text or null. */
  validate(p: WebsocketPayload | undefined, serverUuid: string): string | null {
    if (!p) {
      return JWT_NOT_PRESENT;
    }
    if (Date.now() > p.exp * 1000) {
      return JWT_EXP_INVALID;
    }
    if (this.isDenylisted(p)) {
      return JWT_DENYLISTED;
    }
    if (!this.hasPermission(p, 'websocket.connect')) {
      return JWT_NO_CONNECT;
    }
    if (p.serverUuid !== serverUuid) {
      return JWT_UUID_MISMATCH;
    }
    return null;
  }
}

export interface WebsocketPayload {
  exp: number;
  iat: number | undefined;
  jti: string;
  serverUuid: string;
  userUuid: string;
  permissions: string[];
}
