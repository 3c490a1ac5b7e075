import { challengeOf, relyingPartyOf, userHandleOf } from 'src/modules/passkeys/relying-party';

const clientData = (data: unknown): string => Buffer.from(typeof data === 'string' ? data : JSON.stringify(data)).toString('base64url');

describe('relying-party', () => {
  it('should take the RP id from the host name of APP_URL and the origin without its path', () => {
    expect(relyingPartyOf('https://panel.example.com:8443/sub/')).toEqual({ id: 'panel.example.com', origin: 'https://panel.example.com:8443', name: 'Hatchery' });
    expect(relyingPartyOf('http://localhost:3000')).toEqual({ id: 'localhost', origin: 'http://localhost:3000', name: 'Hatchery' });
  });

  it('should read the challenge the client data names, and nothing from data that is not JSON with one', () => {
    const challenge = 'a'.repeat(43);
    expect(challengeOf(clientData({ type: 'webauthn.get', challenge, origin: 'https://x' }))).toBe(challenge);
    expect(challengeOf(clientData('not json'))).toBeUndefined();
    expect(challengeOf(clientData({ challenge: 42 }))).toBeUndefined();
    expect(challengeOf(clientData({ challenge: 'has spaces in it, too many' }))).toBeUndefined();
    expect(challengeOf(clientData(null))).toBeUndefined();
  });

  it('should make the user handle from the uuid bytes, never from the name or address', () => {
    expect(userHandleOf('00112233-4455-6677-8899-aabbccddeeff')).toBe(Buffer.from('00112233445566778899aabbccddeeff', 'hex').toString('base64url'));
  });
});
