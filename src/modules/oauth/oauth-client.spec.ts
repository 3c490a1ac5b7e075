import { AppException } from 'src/common/errors/app.exception';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { OAuthClient } from 'src/modules/oauth/oauth-client';

const refusal = async (promise: Promise<unknown>): Promise<{ code: string; message: string }> => {
  const e = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof AppException)) {
    throw new Error(`expected an AppException, got ${String(e)}`);
  }
  return { code: e.code, message: e.message };
};

describe(OAuthClient.name, () => {
  describe('discover', () => {
    const sut = new OAuthClient(new OutboundPolicy(false));

    it('should refuse an issuer on a private or loopback address as the outbound rules do', async () => {
      expect(await refusal(sut.discover('https://127.0.0.1:8443/realms/x', 'c', 's'))).toEqual({
        code: 'AUTH_PROVIDER_DISCOVERY_FAILED',
        message: expect.stringContaining('private, loopback or link-local'),
      });
      expect((await refusal(sut.discover('https://keycloak.internal/realms/x', 'c', 's'))).code).toBe('AUTH_PROVIDER_DISCOVERY_FAILED');
    });

    it('should refuse plain http and what is not a URL', async () => {
      expect(await refusal(sut.discover('http://id.example.com', 'c', 's'))).toEqual({ code: 'AUTH_PROVIDER_DISCOVERY_FAILED', message: 'The issuer must use https' });
      expect(await refusal(sut.discover('not a url', 'c', 's'))).toEqual({ code: 'AUTH_PROVIDER_DISCOVERY_FAILED', message: 'The issuer is not a valid URL' });
    });
  });
});
