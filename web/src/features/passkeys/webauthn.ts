import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/** An IP address as a host name (`127.0.0.1`, `[::1]`): WebAuthn refuses one as the relying party id. */
const isIpAddress = (hostname: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[') || hostname.includes(':');

/**
 * Whether passkeys can work here: a browser with WebAuthn, in a secure context, on a panel opened by
 * host name (the panel's relying party id is APP_URL's host name, never an address).
 */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn() && !isIpAddress(window.location.hostname);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The panel's options (typed as any object by the API document) checked for what the browser needs. */
const isCreationOptions = (o: unknown): o is PublicKeyCredentialCreationOptionsJSON =>
  isRecord(o) && typeof o.challenge === 'string' && isRecord(o.rp) && isRecord(o.user) && Array.isArray(o.pubKeyCredParams);
const isRequestOptions = (o: unknown): o is PublicKeyCredentialRequestOptionsJSON => isRecord(o) && typeof o.challenge === 'string';

/** The extension results as a plain record, the shape the API document gives them. */
const plainExtensions = <T extends { clientExtensionResults: object }>(response: T): Omit<T, 'clientExtensionResults'> & { clientExtensionResults: Record<string, unknown> } => ({
  ...response,
  clientExtensionResults: Object.fromEntries(Object.entries(response.clientExtensionResults)),
});

/** The browser's passkey dialog for a new credential, with the panel's options. */
export const createPasskey = async (options: unknown) => {
  if (!isCreationOptions(options)) {
    throw new Error('The panel sent passkey options this page does not understand.');
  }
  return plainExtensions<RegistrationResponseJSON>(await startRegistration({ optionsJSON: options }));
};

/** The browser's passkey dialog to sign with one, with the panel's options. */
export const signWithPasskey = async (options: unknown) => {
  if (!isRequestOptions(options)) {
    throw new Error('The panel sent passkey options this page does not understand.');
  }
  return plainExtensions<AuthenticationResponseJSON>(await startAuthentication({ optionsJSON: options }));
};

/**
 * The user closed or cancelled the browser's passkey dialog (or let it time out): not an error to
 * show, the page just stays as it was. Browsers report all of these as NotAllowedError.
 */
export const isCancelled = (error: unknown): boolean =>
  (error instanceof WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED') || (error instanceof Error && error.name === 'NotAllowedError');

/** A passkey that is already on the account (the authenticator said so). */
export const isAlreadyRegistered = (error: unknown): boolean => error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED';
