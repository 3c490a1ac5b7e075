/** The token of an `Authorization: Bearer <token>` header; undefined for any other header, or none. */
export const bearerToken = (authorization: string | undefined): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/**
 * Whether a bearer token has the shape of a Pterodactyl key: a 16-character identifier and a
 * 32-character secret. Since Pterodactyl 1.8 the identifier starts `ptla_`/`ptlc_`; keys made
 * before (imported from an old panel) have none. Hatchery's own keys are 32 characters.
 */
export const isPterodactylKeyShape = (token: string): boolean => /^[A-Za-z0-9_]{48}$/.test(token);
