import dns, { LookupAddress } from 'node:dns';
import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import ipaddr, { IPv4, IPv6 } from 'ipaddr.js';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

/**
 * SSRF-safe outbound HTTP for user-supplied URLs: only http(s), no credentials, and every address the
 * host resolves to must be public unicast — checked before the request and again at connect time (so a
 * DNS answer that changes in between cannot smuggle in a private address), and again on every redirect.
 */

export const OutboundError = {
  URL_REFUSED: { code: 'OUTBOUND_URL_REFUSED', category: ErrorCategory.BAD_REQUEST, message: 'The URL is not allowed' },
  FETCH_FAILED: { code: 'OUTBOUND_FETCH_FAILED', category: ErrorCategory.BAD_GATEWAY, message: 'The remote server could not be fetched' },
  TOO_LARGE: { code: 'OUTBOUND_TOO_LARGE', category: ErrorCategory.PAYLOAD_TOO_LARGE, message: 'The remote response is too large' },
  TIMEOUT: { code: 'OUTBOUND_TIMEOUT', category: ErrorCategory.GATEWAY_TIMEOUT, message: 'The remote server did not answer in time' },
} satisfies Record<string, ErrorDef>;

const PRIVATE_MESSAGE = 'The URL points at a private, loopback or link-local address';

/** Names that are internal by construction, whatever they resolve to (cloud metadata services above all). */
const INTERNAL_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'instance-data.ec2.internal']);
const INTERNAL_SUFFIXES = ['.localhost', '.internal', '.local', '.home.arpa'];

/** Only 2000::/3 is assigned global unicast; this also refuses ::/8 oddities such as IPv4-compatible ::7f00:1. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

const ipv4From = (hi: number, lo: number): IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 addresses a transition-mechanism IPv6 address leads to; undefined for ordinary IPv6. */
const embeddedIPv4 = (ip: IPv6): IPv4[] | undefined => {
  const [p, range] = [ip.parts, ip.range()];
  if (range === 'ipv4Mapped' || range === 'rfc6145') {
    return [ipv4From(p[6], p[7])];
  }
  if (range === 'rfc6052') {
    // NAT64; the local-use 64:ff9b:1::/48 prefix leads nowhere we can vet, so nothing there is allowed
    return ip.match(NAT64_WELL_KNOWN) ? [ipv4From(p[6], p[7])] : [];
  }
  if (range === '6to4') {
    return [ipv4From(p[1], p[2])];
  }
  if (range === 'teredo') {
    return [ipv4From(p[2], p[3]), ipv4From(p[6] ^ 0xffff, p[7] ^ 0xffff)]; // server, then the bit-inverted client
  }
  return undefined;
};

const isPublicIp = (ip: IPv4 | IPv6): boolean => {
  if (ip instanceof ipaddr.IPv4) {
    return ip.range() === 'unicast';
  }
  const embedded = embeddedIPv4(ip);
  if (embedded) {
    return embedded.length > 0 && embedded.every(isPublicIp);
  }
  return ip.range() === 'unicast' && ip.match(GLOBAL_UNICAST_V6);
};

const isInternalName = (host: string): boolean => {
  const name = host.toLowerCase().replace(/\.+$/, '');
  // A dotless name only resolves through search domains or /etc/hosts: localhost, metadata, intranet…
  return !name.includes('.') || INTERNAL_NAMES.has(name) || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
};

/** Which destinations are acceptable. Production uses the default; tests pass `true` to reach loopback servers. */
export class OutboundPolicy {
  constructor(readonly allowPrivate = false) {}

  isAllowedHostName(host: string): boolean {
    return this.allowPrivate || !isInternalName(host);
  }

  isAllowedAddress(address: string): boolean {
    return this.allowPrivate || (ipaddr.isValid(address) && isPublicIp(ipaddr.parse(address)));
  }
}

const refused = (message: string): AppException => new AppException(OutboundError.URL_REFUSED, { message });
const failed = (message: string): AppException => new AppException(OutboundError.FETCH_FAILED, { message });

/** Resolves a host name (or takes an IP literal as is) and refuses it unless every address is allowed. */
const resolveAllowed = async (hostname: string, policy: OutboundPolicy): Promise<LookupAddress[]> => {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  if (!family && !policy.isAllowedHostName(host)) {
    throw refused(PRIVATE_MESSAGE);
  }
  let addresses: LookupAddress[] = [{ address: host, family }];
  if (!family) {
    addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  }
  if (addresses.length === 0) {
    throw refused('The host name could not be resolved');
  }
  if (addresses.some((a) => !policy.isAllowedAddress(a.address))) {
    throw refused(PRIVATE_MESSAGE);
  }
  return addresses;
};

/** Parses a user-supplied URL and refuses it unless it is http(s), has no credentials and resolves only to allowed addresses. */
export const assertPublicUrl = async (raw: string, policy: OutboundPolicy): Promise<URL> => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('The URL is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refused('The URL must use http or https');
  }
  if (url.username || url.password) {
    throw refused('The URL must not contain credentials');
  }
  await resolveAllowed(url.hostname, policy);
  return url;
};

/** The socket's own lookup: re-resolves and re-checks at connect time, and connects only to what it checked. */
export const checkedLookup =
  (policy: OutboundPolicy): LookupFunction =>
  (hostname, options, callback) => {
    resolveAllowed(hostname, policy).then(
      (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)),
      (err: Error) => callback(err, ''),
    );
  };

interface FetchPublicOptions {
  policy: OutboundPolicy;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  accept?: string;
}

interface FetchPublicResult {
  url: string;
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const get = (url: URL, opts: FetchPublicOptions, signal: AbortSignal): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const headers = { 'User-Agent': 'Hatchery', Accept: opts.accept ?? '*/*', 'Accept-Encoding': 'identity' };
    const req = client.get(url, { headers, signal, agent: false, lookup: checkedLookup(opts.policy) }, resolve);
    req.on('error', (err) => reject(err instanceof AppException ? err : failed(`Could not fetch from ${url.host}`)));
  });

const tooLarge = (url: URL, maxBytes: number): AppException =>
  new AppException(OutboundError.TOO_LARGE, { message: `The response from ${url.host} is larger than ${maxBytes} bytes` });

const readCapped = async (res: IncomingMessage, url: URL, maxBytes: number): Promise<Buffer> => {
  if (Number(res.headers['content-length']) > maxBytes) {
    res.destroy();
    throw tooLarge(url, maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        throw tooLarge(url, maxBytes); // leaving the loop destroys the stream
      }
      chunks.push(chunk);
    }
  } catch (err) {
    throw err instanceof AppException ? err : failed(`The response from ${url.host} was cut off`);
  }
  return Buffer.concat(chunks);
};

const follow = async (raw: string, opts: FetchPublicOptions, signal: AbortSignal): Promise<FetchPublicResult> => {
  let url = await assertPublicUrl(raw, opts.policy);
  for (let redirects = 0; ; redirects++) {
    const res = await get(url, opts, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECT_STATUSES.has(status) && location) {
      res.destroy();
      if (redirects >= (opts.maxRedirects ?? 3)) {
        throw failed(`Too many redirects fetching from ${url.host}`);
      }
      let next: string;
      try {
        next = new URL(location, url).href;
      } catch {
        throw failed(`${url.host} redirected to an invalid URL`);
      }
      url = await assertPublicUrl(next, opts.policy);
      continue;
    }
    if (status < 200 || status > 299) {
      res.destroy();
      throw failed(`${url.host} answered with HTTP ${status}`);
    }
    const body = await readCapped(res, url, opts.maxBytes);
    return { url: url.href, status, contentType: res.headers['content-type'], body };
  }
};

/** GETs a user-supplied URL under the policy, following up to maxRedirects (default 3) re-checked redirects. */
export const fetchPublic = async (raw: string, opts: FetchPublicOptions): Promise<FetchPublicResult> => {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new AppException(OutboundError.TIMEOUT, { message: `The remote server did not answer within ${opts.timeoutMs} ms` }));
    }, opts.timeoutMs);
  });
  try {
    return await Promise.race([follow(raw, opts, abort.signal), timeout]);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
};

interface PostPublicOptions {
  policy: OutboundPolicy;
  timeoutMs: number;
  headers: Record<string, string>;
  /** How much of the answer to keep (the rest is read and dropped). */
  keepBytes: number;
}

interface PostPublicResult {
  status: number;
  /** The first `keepBytes` of the answer, as text. */
  body: string;
}

/**
 * POSTs a body to a user-supplied URL under the policy (webhooks). Redirects are not followed (a 3xx is
 * the answer), so a public URL cannot bounce the request to a private one. Rejects with an AppException
 * when the URL is refused, the connection fails or the answer does not come within `timeoutMs`.
 */
export const postPublic = async (raw: string, body: string, opts: PostPublicOptions): Promise<PostPublicResult> => {
  const url = await assertPublicUrl(raw, opts.policy);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostPublicResult>((resolve, reject) => {
    const headers = { 'User-Agent': 'Hatchery', 'Content-Length': String(Buffer.byteLength(body)), ...opts.headers };
    const req = client.request(url, { method: 'POST', headers, agent: false, lookup: checkedLookup(opts.policy) }, (res) => {
      const kept: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < opts.keepBytes) {
          kept.push(chunk.subarray(0, opts.keepBytes - size));
        }
        size += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(kept).toString('utf8') }));
      res.on('error', () => reject(failed(`The answer from ${url.host} was cut off`)));
    });
    // The whole exchange, connecting and the answer included, is bounded.
    const timer = setTimeout(() => req.destroy(new AppException(OutboundError.TIMEOUT, { message: `${url.host} did not answer within ${opts.timeoutMs} ms` })), opts.timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err) => reject(err instanceof AppException ? err : failed(`Could not connect to ${url.host}`)));
    req.end(body);
  });
};
