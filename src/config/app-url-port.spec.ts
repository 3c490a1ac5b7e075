import { appUrlPortWarning } from 'src/config/app-url-port';

describe('appUrlPortWarning', () => {
  it('should warn when a loopback APP_URL names another port than PORT', () => {
    for (const appUrl of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://panel.localhost:3000', 'http://localhost']) {
      expect({ appUrl, warning: appUrlPortWarning(appUrl, 8080) }).toEqual({ appUrl, warning: expect.stringContaining('Set APP_URL=') });
    }
    expect(appUrlPortWarning('https://localhost', 8443)).toBe(
      'APP_URL is https://localhost but the panel listens on port 8443: a browser that opens https://localhost:8443 cannot sign in (403 UNTRUSTED_ORIGIN). Set APP_URL=https://localhost:8443 (the address you open the panel at), or PORT=443.',
    );
  });

  it('should not warn when the ports match, counting the scheme’s default port', () => {
    expect(appUrlPortWarning('http://localhost:8080', 8080)).toBeUndefined();
    expect(appUrlPortWarning('http://localhost', 80)).toBeUndefined();
    expect(appUrlPortWarning('https://127.0.0.1/', 443)).toBeUndefined();
  });

  it('should not warn for other hosts (a proxy in front) or PORT=0 (any free port)', () => {
    expect(appUrlPortWarning('https://panel.example.com', 3000)).toBeUndefined();
    expect(appUrlPortWarning('http://192.168.1.5:3000', 8080)).toBeUndefined();
    expect(appUrlPortWarning('http://localhost:3000', 0)).toBeUndefined();
  });
});
