import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** Authenticator data flags (WebAuthn, "Authenticator Data"). */
const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Buffer | string): Buffer => createHash('sha256').update(data).digest();
const uint32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

interface Credential {
  id: Buffer;
  key: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

/** What a test may change in a ceremony, to see the panel refuse it. */
export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  /** The counter to sign, instead of the next one. */
  counter?: number;
  userVerified?: boolean;
  /** Another challenge than the options' (base64url). */
  challenge?: string;
  /** Sign with this credential id's key, but name another credential. */
  credentialId?: string;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

/**
 * A software WebAuthn authenticator for tests: ES256 keys made with node:crypto, `none`
 * attestation, and assertions signed over authenticator data and the client data hash, as a
 * platform authenticator makes them, so the panel checks real responses. It keeps discoverable
 * credentials (user handle included) and a signature counter for each.
 */
export class SoftAuthenticator {
  private readonly credentials: Credential[] = [];

  constructor(private readonly origin: string) {}

  /** The ids (base64url) of the credentials it holds. */
  get ids(): string[] {
    return this.credentials.map((c) => b64url(c.id));
  }

  /** `navigator.credentials.create()` for these options, as JSON. */
  create(options: CreationOptions, overrides: CeremonyOverrides = {}) {
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const flags = UP | (overrides.userVerified === false ? 0 : UV) | BE | BS | AT;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), uint32(0), Buffer.alloc(16), idLength, id, Buffer.from(cose)]);
    const clientData = this.clientData('webauthn.create', overrides.challenge ?? options.challenge, overrides.origin);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({ id, key: privateKey, userHandle: options.user.id, rpId, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /** `navigator.credentials.get()`: the first allowed credential (or the only one held, for discoverable options), as JSON. */
  get(options: RequestOptions, overrides: CeremonyOverrides = {}) {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const credential = this.credentials.find((c) => allowed.length === 0 || allowed.includes(b64url(c.id)));
    if (!credential) {
      throw new Error('no credential for these options');
    }
    credential.counter += 1;
    const counter = overrides.counter ?? credential.counter;
    const rpId = overrides.rpId ?? options.rpId ?? credential.rpId;
    const flags = UP | (overrides.userVerified === false ? 0 : UV) | BE | BS;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), uint32(counter)]);
    const clientData = this.clientData('webauthn.get', overrides.challenge ?? options.challenge, overrides.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.key);
    const id = overrides.credentialId ?? b64url(credential.id);
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  private clientData(type: string, challenge: string, origin?: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: origin ?? this.origin, crossOrigin: false }));
  }
}
