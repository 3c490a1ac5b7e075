import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as oidc from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { OAuthClient } from 'src/modules/oauth/oauth-client';
import { createUser } from 'test/factories/user.factory';
import { sessionCookie, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';

// The Discord and GitHub presets are OAuth 2.0, not OpenID Connect: the panel exchanges the code at
// the provider's token endpoint, then reads who signed in from its API (GitHub: /user and /user/emails;
// Discord: /users/@me). Their hosts (github.com, api.github.com, discord.com) are answered here by a
// local server in their documented shapes: the client below sends each request there instead, nothing else changed.

interface Seen {
  host: string;
  method: string;
  path: string;
  authorization: string;
  userAgent: string;
  body: string;
}

/** github.com, api.github.com and discord.com, as far as a sign-in reaches them. */
class FakeProviders {
  readonly seen: Seen[] = [];
  /** What GET https://api.github.com/user/emails answers. */
  githubEmails: { email: string; primary: boolean; verified: boolean }[] = [];
  discordUser: Record<string, unknown> = {};
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.answer(req).then(({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const [, host, ...rest] = (req.url ?? '').split('/');
    const path = `/${rest.join('/')}`.split('?')[0];
    this.seen.push({ host, method: req.method ?? '', path, authorization: req.headers.authorization ?? '', userAgent: req.headers['user-agent'] ?? '', body: Buffer.concat(chunks).toString() });
    const bearer = req.headers.authorization === 'Bearer token-of-the-code';
    switch (`${req.method} ${host}${path}`) {
      case 'POST github.com/login/oauth/access_token':
      case 'POST discord.com/api/oauth2/token':
        return { status: 200, body: { access_token: 'token-of-the-code', token_type: 'bearer', scope: 'read:user,user:email' } };
      case 'GET api.github.com/user':
        return bearer ? { status: 200, body: { id: 583231, login: 'octocat', name: 'The Octocat' } } : { status: 401, body: { message: 'Bad credentials' } };
      case 'GET api.github.com/user/emails':
        return bearer ? { status: 200, body: this.githubEmails } : { status: 401, body: { message: 'Bad credentials' } };
      case 'GET discord.com/api/users/@me':
        return bearer ? { status: 200, body: this.discordUser } : { status: 401, body: { message: '401: Unauthorized' } };
      default:
        return { status: 404, body: { message: 'Not Found' } };
    }
  }
}

describe.each(dbKinds(['postgres', 'pglite']))('single sign-on with the Discord and GitHub presets (%s)', (db) => {
  let t: TestApp;
  let fake: FakeProviders;
  let adminCookie: string;
  const ids = { github: '', discord: '' };

  /** The start (the panel's redirect to the provider), then the provider's answer to the callback, with a code. */
  const signInWith = async (id: string): Promise<{ location: string; cookie?: string }> => {
    const start = await t.http().get(`/api/auth/oauth/${id}`).expect(302);
    const authorize = new URL(start.headers.location);
    const flow = ((start.headers['set-cookie'] as unknown as string[]) ?? []).find((c) => c.startsWith('hatchery_oauth='))!.split(';')[0];
    const back = new URL(authorize.searchParams.get('redirect_uri')!);
    back.searchParams.set('code', 'the-code');
    back.searchParams.set('state', authorize.searchParams.get('state')!);
    const res = await t.http().get(back.pathname + back.search).set('Cookie', flow).expect(302);
    return { location: res.headers.location, cookie: sessionCookie(res) };
  };
  const who = async (cookie: string) => (await t.http().get('/api/auth/session').set('Cookie', cookie).expect(200)).body.data.user;

  beforeAll(async () => {
    fake = new FakeProviders();
    await fake.start();
    const policy = new OutboundPolicy(true);
    class ToFakeProviders extends OAuthClient {
      protected override readonly fetch: oidc.CustomFetch = (url, { body, headers, method, redirect, signal }) => {
        const u = new URL(url);
        return undiciFetch(`${fake.url}/${u.hostname}${u.pathname}${u.search}`, { body: body as never, headers, method, redirect, signal });
      };
    }
    t = await createTestApp({ db, overrides: [{ provide: OutboundPolicy, useValue: policy }, { provide: OAuthClient, useValue: new ToFakeProviders(policy) }] });
    const root = await createUser(t.app, { admin: true });
    adminCookie = await signIn(t, root.email);
    const add = async (type: 'github' | 'discord') =>
      (
        await t
          .http()
          .post('/api/admin/auth-providers')
          .set('Cookie', adminCookie)
          .set('Origin', TEST_ORIGIN)
          .send({ name: type === 'github' ? 'GitHub' : 'Discord', type, clientId: `${type}-client`, clientSecret: `${type}-secret`, allowRegistration: true })
          .expect(201)
      ).body.data.id as string;
    ids.github = await add('github');
    ids.discord = await add('discord');
  });

  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('should send the browser to GitHub, take the code, and make the account from the profile and its primary verified address', async () => {
    fake.githubEmails = [
      { email: 'octo-old@example.test', primary: false, verified: true },
      { email: 'octocat@example.test', primary: true, verified: true },
    ];
    const start = await t.http().get(`/api/auth/oauth/${ids.github}`).expect(302);
    const authorize = new URL(start.headers.location);
    expect(authorize.origin + authorize.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(authorize.searchParams.get('client_id')).toBe('github-client');
    expect(authorize.searchParams.get('scope')).toBe('read:user user:email');
    const from = fake.seen.length;
    const { location, cookie } = await signInWith(ids.github);
    expect(location).toBe('/');
    expect(await who(cookie!)).toMatchObject({ username: 'octocat', email: 'octocat@example.test' });
    const calls = fake.seen.slice(from);
    expect(calls.map((c) => `${c.method} ${c.host}${c.path}`)).toEqual(['POST github.com/login/oauth/access_token', 'GET api.github.com/user', 'GET api.github.com/user/emails']);
    // The code and the client's secret at the token endpoint; the token (never the secret) on the API, which wants a User-Agent.
    expect(new URLSearchParams(calls[0].body).get('code')).toBe('the-code');
    expect(new URLSearchParams(calls[0].body).get('client_secret')).toBe('github-secret');
    expect(calls[1]).toMatchObject({ authorization: 'Bearer token-of-the-code', userAgent: 'Hatchery' });
    // The same GitHub account (its numeric id) signs the same account in, whatever its addresses now.
    fake.githubEmails = [{ email: 'octocat-new@example.test', primary: true, verified: true }];
    const again = await signInWith(ids.github);
    expect((await who(again.cookie!)).id).toBe((await who(cookie!)).id);
  });

  it('should refuse a GitHub account whose primary address is not verified', async () => {
    fake.githubEmails = [{ email: 'unverified-octo@example.test', primary: true, verified: false }];
    const before = fake.seen.length;
    // Another GitHub account: the fake's /user answers the same id, so its identity exists; a new provider row makes it unknown.
    const other = (
      await t
        .http()
        .post('/api/admin/auth-providers')
        .set('Cookie', adminCookie)
        .set('Origin', TEST_ORIGIN)
        .send({ name: 'GitHub Enterprise-less', type: 'github', clientId: 'github-client-2', clientSecret: 'github-secret-2', allowRegistration: true })
        .expect(201)
    ).body.data.id as string;
    const { location, cookie } = await signInWith(other);
    expect(location).toBe('/auth/login?error=OAUTH_EMAIL_NOT_VERIFIED');
    expect(cookie).toBeUndefined();
    expect(fake.seen.length - before).toBe(3);
  });

  it('should make the account of a Discord user from /users/@me, with its verified address', async () => {
    fake.discordUser = { id: '80351110224678912', username: 'nelly', global_name: 'Nelly', email: 'nelly@example.test', verified: true };
    const start = await t.http().get(`/api/auth/oauth/${ids.discord}`).expect(302);
    const authorize = new URL(start.headers.location);
    expect(authorize.origin + authorize.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(authorize.searchParams.get('scope')).toBe('identify email');
    const from = fake.seen.length;
    const { location, cookie } = await signInWith(ids.discord);
    expect(location).toBe('/');
    expect(await who(cookie!)).toMatchObject({ username: 'nelly', email: 'nelly@example.test' });
    expect(fake.seen.slice(from).map((c) => `${c.method} ${c.host}${c.path}`)).toEqual(['POST discord.com/api/oauth2/token', 'GET discord.com/api/users/@me']);
    // An unverified Discord address makes no account.
    fake.discordUser = { id: '80351110224678913', username: 'nelly2', email: 'nelly2@example.test', verified: false };
    expect((await signInWith(ids.discord)).location).toBe('/auth/login?error=OAUTH_EMAIL_NOT_VERIFIED');
  });
});
