import dns from 'node:dns';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppException } from 'src/common/errors/app.exception';
import { assertPublicUrl, fetchPublic, OutboundError, OutboundPolicy } from 'src/common/http/outbound-url';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface TestServer {
  url: string;
  port: number;
  requests: IncomingMessage[];
  close: () => Promise<void>;
}

const servers: TestServer[] = [];

const serve = async (handler: Handler): Promise<TestServer> => {
  const requests: IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = (): Promise<void> => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  const created = { url: `http://127.0.0.1:${port}`, port, requests, close };
  servers.push(created);
  return created;
};

/** Stubs name resolution: each name maps to its addresses; anything else does not resolve. No real DNS in tests. */
const stubDns = (table: Record<string, string[]>): jest.SpyInstance =>
  jest.spyOn(dns.promises, 'lookup').mockImplementation(((host: string) => {
    const addresses = table[host];
    if (!addresses) {
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    }
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  }) as never);

const errorOf = async (promise: Promise<unknown>): Promise<AppException> => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppException) {
      return err;
    }
    throw err;
  }
  throw new Error('expected the promise to reject');
};

/** Lets the test servers on 127.0.0.1 through but keeps every other default rule, so redirect hops get the real check. */
class LoopbackTestServerPolicy extends OutboundPolicy {
  override isAllowedAddress(address: string): boolean {
    return address === '127.0.0.1' || super.isAllowedAddress(address);
  }
}

const PRIVATE = 'private, loopback or link-local';
const open = new OutboundPolicy(true);
const fetchOpts = { policy: open, maxBytes: 1024, timeoutMs: 2000 };

describe('outbound URLs', () => {
  beforeEach(() => {
    stubDns({ 'evil.example': ['10.1.2.3'], 'mixed.example': ['93.184.216.34', '10.0.0.1'], 'good.example': ['93.184.216.34', '2606:4700::1111'] });
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  describe('assertPublicUrl with the default policy', () => {
    const policy = new OutboundPolicy();

    it.each([
      ['file:///etc/passwd', 'http or https'],
      ['ftp://93.184.216.34/x', 'http or https'],
      ['gopher://93.184.216.34:70/_x', 'http or https'],
      ['javascript:alert(1)', 'http or https'],
      ['data:text/plain,hello', 'http or https'],
      ['not a url', 'not a valid absolute URL'],
      ['http://user:pass@93.184.216.34/', 'credentials'],
      ['http://user@93.184.216.34/', 'credentials'],
      ['http://localhost/', PRIVATE],
      ['http://api.localhost:3000/', PRIVATE],
      ['http://intranet/', PRIVATE],
      ['http://metadata.google.internal/computeMetadata/v1/', PRIVATE],
      ['http://METADATA.google.internal./', PRIVATE],
      ['http://printer.local/', PRIVATE],
      ['http://127.0.0.1/', PRIVATE],
      ['http://127.1/', PRIVATE],
      ['http://2130706433/', PRIVATE],
      ['http://0x7f000001/', PRIVATE],
      ['http://0x7f.1/', PRIVATE],
      ['http://0177.0.0.1/', PRIVATE],
      ['http://[::1]/', PRIVATE],
      ['http://[::ffff:127.0.0.1]/', PRIVATE],
      ['http://[::ffff:7f00:1]/', PRIVATE],
      ['http://[::127.0.0.1]/', PRIVATE],
      ['http://10.0.0.1/', PRIVATE],
      ['http://172.16.5.4/', PRIVATE],
      ['http://192.168.1.1/', PRIVATE],
      ['http://169.254.169.254/latest/meta-data/', PRIVATE],
      ['http://[::ffff:169.254.169.254]/', PRIVATE],
      ['http://100.64.0.1/', PRIVATE],
      ['http://0.0.0.0/', PRIVATE],
      ['http://[::]/', PRIVATE],
      ['http://[fe80::1]/', PRIVATE],
      ['http://[fc00::1]/', PRIVATE],
      ['http://[fd12:3456::1]/', PRIVATE],
      ['http://224.0.0.1/', PRIVATE],
      ['http://[ff02::1]/', PRIVATE],
      ['http://255.255.255.255/', PRIVATE],
      ['http://240.0.0.1/', PRIVATE],
      ['http://198.18.0.1/', PRIVATE],
      ['http://[64:ff9b::10.0.0.1]/', PRIVATE], // NAT64 to a private address
      ['http://[2002:a00:1::1]/', PRIVATE], // 6to4 of 10.0.0.1
      ['http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/', PRIVATE], // Teredo, client 10.0.0.1
      ['http://evil.example/', PRIVATE], // resolves to 10.1.2.3
      ['http://mixed.example/', PRIVATE], // one public and one private address
      ['http://nowhere.example/', 'could not be resolved'],
    ])('should refuse %s', async (raw, reason) => {
      const err = await errorOf(assertPublicUrl(raw, policy));
      expect(err.code).toBe(OutboundError.URL_REFUSED.code);
      expect(err.status).toBe(400);
      expect(err.message).toContain(reason);
    });

    it.each([
      'http://93.184.216.34/x',
      'https://[2606:4700::1111]/',
      'https://[64:ff9b::93.184.216.34]/', // NAT64 to a public address
      'http://[2002:5db8:d822::1]/', // 6to4 of a public address
      'https://good.example:8443/eggs/minecraft.json?v=1',
    ])('should allow %s', async (raw) => {
      await expect(assertPublicUrl(raw, policy)).resolves.toEqual(new URL(raw));
    });

    it('should resolve names with every address, not just the first', async () => {
      await assertPublicUrl('https://good.example/', policy);
      expect(dns.promises.lookup).toHaveBeenCalledWith('good.example', { all: true });
    });

    it('should let everything through only when private addresses are explicitly allowed', async () => {
      await expect(assertPublicUrl('http://127.0.0.1:8080/', new OutboundPolicy(true))).resolves.toBeInstanceOf(URL);
      await expect(errorOf(assertPublicUrl('file:///etc/passwd', new OutboundPolicy(true)))).resolves.toMatchObject({ code: 'OUTBOUND_URL_REFUSED' });
    });
  });

  describe('fetchPublic', () => {
    it('should return the body and content type, sending only a User-Agent and Accept', async () => {
      const server = await serve((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"egg":true}'));
      const result = await fetchPublic(`${server.url}/egg.json`, { ...fetchOpts, accept: 'application/json' });
      expect(result).toEqual({ url: `${server.url}/egg.json`, status: 200, contentType: 'application/json', body: Buffer.from('{"egg":true}') });
      const headers = server.requests[0].headers;
      expect(headers['user-agent']).toBe('Hatchery');
      expect(headers.accept).toBe('application/json');
      expect(headers.cookie).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
    });

    it('should stop reading a streamed body as soon as it passes maxBytes', async () => {
      const server = await serve((_req, res) => {
        res.writeHead(200); // chunked, no Content-Length
        res.write('x'.repeat(1000));
        res.write('x'.repeat(1000)); // never ends: only the cap can finish this request
      });
      const err = await errorOf(fetchPublic(server.url, fetchOpts));
      expect(err).toMatchObject({ code: OutboundError.TOO_LARGE.code, status: 413 });
    });

    it('should refuse a body whose Content-Length announces more than maxBytes', async () => {
      const server = await serve((_req, res) => {
        res.writeHead(200, { 'Content-Length': '5000' });
        res.write('x'); // the rest never comes: the header alone must decide
      });
      const err = await errorOf(fetchPublic(server.url, fetchOpts));
      expect(err).toMatchObject({ code: OutboundError.TOO_LARGE.code, status: 413 });
    });

    it('should time out a server that never answers', async () => {
      const server = await serve(() => undefined);
      const started = Date.now();
      const err = await errorOf(fetchPublic(server.url, { ...fetchOpts, timeoutMs: 300 }));
      expect(err).toMatchObject({ code: OutboundError.TIMEOUT.code, status: 504 });
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('should follow a redirect chain, resolving relative locations', async () => {
      const target = await serve((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('done'));
      const hop = await serve((req, res) => {
        const location = req.url === '/start' ? '/middle' : `${target.url}/final`;
        res.writeHead(req.url === '/start' ? 302 : 301, { Location: location }).end();
      });
      const result = await fetchPublic(`${hop.url}/start`, fetchOpts);
      expect(result).toMatchObject({ url: `${target.url}/final`, status: 200, body: Buffer.from('done') });
      expect(hop.requests.map((r) => r.url)).toEqual(['/start', '/middle']);
    });

    it('should refuse more than maxRedirects redirects', async () => {
      const loop = await serve((req, res) => res.writeHead(302, { Location: `/${Number(req.url!.slice(1)) + 1}` }).end());
      const err = await errorOf(fetchPublic(`${loop.url}/0`, { ...fetchOpts, maxRedirects: 2 }));
      expect(err).toMatchObject({ code: OutboundError.FETCH_FAILED.code, status: 502 });
      expect(err.message).toContain('Too many redirects');
      expect(loop.requests).toHaveLength(3);
    });

    it('should report a non-2xx answer as FETCH_FAILED without echoing the body', async () => {
      const server = await serve((_req, res) => res.writeHead(404).end('secret internal page'));
      const err = await errorOf(fetchPublic(server.url, fetchOpts));
      expect(err).toMatchObject({ code: OutboundError.FETCH_FAILED.code, status: 502 });
      expect(err.message).toBe(`127.0.0.1:${server.port} answered with HTTP 404`);
    });

    it('should report a refused connection as FETCH_FAILED naming the host', async () => {
      const server = await serve(() => undefined);
      await server.close();
      const err = await errorOf(fetchPublic(server.url, fetchOpts));
      expect(err).toMatchObject({ code: OutboundError.FETCH_FAILED.code, message: `Could not fetch from 127.0.0.1:${server.port}` });
    });

    it('should refuse a loopback URL under the default policy before connecting', async () => {
      const server = await serve((_req, res) => res.end('should not be reached'));
      const err = await errorOf(fetchPublic(server.url, { ...fetchOpts, policy: new OutboundPolicy() }));
      expect(err).toMatchObject({ code: OutboundError.URL_REFUSED.code, message: expect.stringContaining(PRIVATE) });
      expect(server.requests).toHaveLength(0);
    });

    it('should connect to the addresses its own lookup checked', async () => {
      stubDns({ 'app.example': ['127.0.0.1'] });
      const server = await serve((_req, res) => res.end('via the checked lookup'));
      const result = await fetchPublic(`http://app.example:${server.port}/`, { ...fetchOpts, policy: new LoopbackTestServerPolicy() });
      expect(result.body.toString()).toBe('via the checked lookup');
      expect(server.requests[0].headers.host).toBe(`app.example:${server.port}`);
      expect(dns.promises.lookup).toHaveBeenCalledTimes(2); // once up front, once at connect time
    });

    it('should re-check the address at connect time (DNS rebinding)', async () => {
      const server = await serve((_req, res) => res.end('should not be reached'));
      const lookup = stubDns({});
      lookup.mockResolvedValueOnce([{ address: '93.184.216.34', family: 4 }] as never);
      lookup.mockResolvedValueOnce([{ address: '127.0.0.1', family: 4 }] as never);
      const err = await errorOf(fetchPublic(`http://rebind.example:${server.port}/`, { ...fetchOpts, policy: new OutboundPolicy() }));
      expect(err).toMatchObject({ code: OutboundError.URL_REFUSED.code, message: expect.stringContaining(PRIVATE) });
      expect(server.requests).toHaveLength(0);
    });

    it.each([
      ['a loopback address', (port: number) => `http://127.0.0.2:${port}/`],
      ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
      ['a name resolving to a private address', (port: number) => `http://evil.example:${port}/`],
      ['localhost', (port: number) => `http://localhost:${port}/`],
      ['a non-http scheme', () => 'file:///etc/passwd'],
    ])('should refuse a redirect to %s at the hop', async (_what, location) => {
      const inner = await serve((_req, res) => res.end('should not be reached'));
      const outer = await serve((_req, res) => res.writeHead(302, { Location: location(inner.port) }).end());
      const err = await errorOf(fetchPublic(outer.url, { ...fetchOpts, policy: new LoopbackTestServerPolicy() }));
      expect(err.code).toBe(OutboundError.URL_REFUSED.code);
      expect(outer.requests).toHaveLength(1);
      expect(inner.requests).toHaveLength(0);
    });
  });
});
