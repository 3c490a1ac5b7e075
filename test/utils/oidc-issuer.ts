import { createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Claims an account of the test issuer gives. */
interface IssuerAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

/** A cookie jar of name=value pairs, enough for the issuer's interaction cookies. */
class Jar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const raw of res.headers.getSetCookie()) {
      const [pair] = raw.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1, with one confidential client. Its
 * clients are set again (setRedirectUris) once the panel's provider ids, hence callback URLs, exist.
 */
export class OidcIssuer {
  readonly accounts = new Map<string, IssuerAccount>();
  private provider!: Provider;
  private readonly privateJwk: Record<string, unknown>;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    readonly clientId: string,
    readonly clientSecret: string,
  ) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateJwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
    this.setRedirectUris([]);
  }

  static async start(clientId = 'hatchery-test', clientSecret = randomBytes(16).toString('hex')): Promise<OidcIssuer> {
    const to: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {};
    const server = createServer((req, res) => to.handler?.(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = new OidcIssuer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, clientId, clientSecret);
    to.handler = (req, res) => void issuer.provider.callback()(req, res);
    return issuer;
  }

  /** A new provider instance whose client may redirect to these URIs (the accounts stay). */
  setRedirectUris(redirectUris: string[]): void {
    // Its development-only warnings (in-memory adapter, devInteractions) are what a test wants.
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      this.provider = this.build(redirectUris);
    } finally {
      console.warn = warn;
    }
  }

  private build(redirectUris: string[]): Provider {
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: this.clientId,
          client_secret: this.clientSecret,
          redirect_uris: redirectUris.length > 0 ? redirectUris : ['http://panel.test/none'],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      findAccount: (_ctx: unknown, sub: string) => {
        const account = this.accounts.get(sub);
        return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
      },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
      jwks: { keys: [this.privateJwk] },
      cookies: { keys: ['oidc-issuer-test-cookie-key'] },
      pkce: { required: () => true },
      // Lifetimes of its own (seconds): the defaults are functions that print a notice each, in every test's output.
      ttl: { Interaction: 600, Session: 3_600, Grant: 3_600, AccessToken: 600, IdToken: 600 },
    } as never);
    provider.on('server_error', (_ctx: unknown, err: unknown) => console.error('oidc-provider', err));
    return provider;
  }

  /**
   * Plays the user at the provider: from the panel's redirect to the authorization endpoint, signs in
   * as `sub` and consents, and answers where the provider sends the browser back (the panel's callback).
   */
  async authorize(authorizationUrl: string, sub: string): Promise<string> {
    const jar = new Jar();
    let url = authorizationUrl;
    let init: RequestInit = {};
    for (let step = 0; step < 12; step++) {
      const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), cookie: jar.header() } });
      jar.take(res);
      const location = res.headers.get('location');
      if (location) {
        const next = new URL(location, url).href;
        if (!next.startsWith(this.issuer)) {
          return next;
        }
        url = next;
        init = {};
        continue;
      }
      const html = await res.text();
      if (res.status !== 200 || !url.includes('/interaction/')) {
        throw new Error(`issuer answered ${res.status} at ${url}: ${html.slice(0, 300)}`);
      }
      const prompt = html.includes('name="login"') ? 'login' : 'consent';
      const body = new URLSearchParams(prompt === 'login' ? { prompt, login: sub, password: 'x' } : { prompt });
      init = { method: 'POST', body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    }
    throw new Error('the issuer never sent the browser back');
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/**
 * A forging issuer for the refusals a real provider never produces: it serves discovery and keys,
 * answers every authorization at once (echoing state), and its token endpoint returns an ID token
 * signed with its own key whose claims `forge` may change (another issuer, audience or nonce).
 */
export class ForgingIssuer {
  forge: (claims: Record<string, unknown>) => Record<string, unknown> = (c) => c;
  private readonly nonces = new Map<string, string>();
  private readonly key = generateKeyPairSync('rsa', { modulusLength: 2048 });

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    readonly clientId: string,
  ) {}

  static async start(clientId = 'hatchery-forged'): Promise<ForgingIssuer> {
    const to: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {};
    const server = createServer((req, res) => to.handler?.(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const forging = new ForgingIssuer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, clientId);
    to.handler = (req, res) => void forging.handle(req, res);
    return forging;
  }

  private sign(claims: Record<string, unknown>): string {
    const part = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${part({ alg: 'RS256', kid: 'forged', typ: 'JWT' })}.${part(claims)}`;
    return `${input}.${createSign('RSA-SHA256').update(input).sign(this.key.privateKey).toString('base64url')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.issuer);
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/auth`,
        token_endpoint: `${this.issuer}/token`,
        jwks_uri: `${this.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks') {
      return json(200, { keys: [{ ...this.key.publicKey.export({ format: 'jwk' }), kid: 'forged', use: 'sig', alg: 'RS256' }] });
    }
    if (url.pathname === '/auth') {
      const code = randomBytes(8).toString('hex');
      this.nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token') {
      let body = '';
      for await (const chunk of req) {
        body += String(chunk);
      }
      const code = new URLSearchParams(body).get('code') ?? '';
      const now = Math.floor(Date.now() / 1000);
      const claims = this.forge({ iss: this.issuer, aud: this.clientId, sub: 'forged-subject', nonce: this.nonces.get(code), iat: now, exp: now + 300, email: 'forged@example.test', email_verified: true });
      return json(200, { access_token: randomBytes(8).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: this.sign(claims) });
    }
    json(404, { error: 'not_found' });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
