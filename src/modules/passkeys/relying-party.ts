/** The WebAuthn relying party: the panel at APP_URL, whose host name passkeys are bound to. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export const relyingPartyOf = (appUrl: string): RelyingParty => {
  const url = new URL(appUrl);
  return { id: url.hostname, origin: url.origin, name: 'Hatchery' };
};

/**
 * The challenge a credential's client data says it answers (base64url), or undefined when the
 * client data is not JSON with one. Only a lookup key: the library checks the data itself after.
 */
export const challengeOf = (clientDataJSON: string): string | undefined => {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = data !== null && typeof data === 'object' ? (data as { challenge?: unknown }).challenge : undefined;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : undefined;
  } catch {
    return undefined;
  }
};

/** The WebAuthn user handle of an account: its uuid's 16 bytes (no e-mail address or name in it), base64url. */
export const userHandleOf = (uuid: string): string => Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url');
