import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import sshpk from 'sshpk';
import type { Response } from 'supertest';
import { AppModule } from 'src/app.module';
import { BackgroundTasks } from 'src/common/background/background-tasks';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';
import { DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { sessionCookie, signIn } from 'test/utils/auth';
import { Ctx, prepareClientRoutes, ROWS, serverRoutes } from 'test/utils/client-route-rows';
import { TEST_ORIGIN } from 'test/utils/create-test-app';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';
import { MariaDb, mariadbAvailable, reserveServerIds, testHostBody } from 'test/utils/mariadb';
import { LiveClient } from 'test/utils/live-client';
import { listRoutes } from 'test/utils/routes';
import { createPterodactylKey, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';
import { addSimNode, SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { UsageSamplerJob } from 'src/modules/usage/usage-sampler.job';
import { WebhookDeliveryJob } from 'src/modules/webhooks/webhook-delivery.job';
import { WebhookReceiver } from 'test/utils/webhook-receiver';
import { OidcIssuer } from 'test/utils/oidc-issuer';
import { startTestS3 } from 'test/utils/s3-server';
import { SmtpSink } from 'test/utils/smtp-sink';
import { SoftAuthenticator } from 'test/utils/soft-authenticator';

/**
 * The embedded database (PGlite) is what a newcomer's `npm start` runs on, and code with no PGlite
 * branch of its own can still break there: PGlite handed bigint ids over as numbers, and every new
 * database host collided with itself. Running every file twice would double the suite; instead this
 * file walks every route of the app once on PGlite, as users and a Wings node would (the simulator
 * over real HTTP, a real MariaDB host), and fails if any route never answered 2xx here, so a new
 * route without a step here fails it too.
 */

const RESET_LINK = /\/auth\/password\/reset\?token=([A-Za-z0-9_-]+)/;
const codeAt = (secret: string, ms: number): string => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });
const sshKeyLine = (): string => {
  const { publicKey } = generateKeyPairSync('ed25519', { publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  return `${sshpk.parseKey(publicKey, 'pem').toString('ssh')} tour@example.test`;
};

/** An HTTP server on loopback that answers every request with `body`. */
const serve = async (body: Buffer): Promise<{ url: string; close: () => Promise<void> }> => {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
};

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const TOUR_METRICS_TOKEN = 'tour-metrics-token-0123456789';

(hasPaper && mariadbAvailable() ? describe : describe.skip)('every route on the embedded database (pglite)', () => {
  /** `GET /api/admin/users/:id` → the statuses it answered. */
  const answered = new Map<string, number[]>();
  let c: Ctx;
  /** Set as soon as the panel runs, so afterAll stops it even when the setup after it fails. */
  let panel: SimPanel | undefined;
  let mariadb: MariaDb;
  let firstServerId: number;
  let sink: SmtpSink;
  let closeFiles: (() => Promise<void>) | undefined;
  let adminKey: string;
  let nodeAuth: string;
  let serverUuid: string;
  /** Serves the stock Paper egg: the gallery lists it, import-url and the update from URL fetch it. */
  let paperHost: { url: string; close: () => Promise<void> } | undefined;

  const p = () => c.p;
  const withKey = (method: 'get' | 'post', path: string) => p().t.http()[method](path).set('Authorization', `Bearer ${adminKey}`);
  const remote = (method: 'get' | 'post', path: string) => p().t.http()[method](path).set('Authorization', nodeAuth);
  const data = (res: Response) => res.body.data;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    paperHost = await serve(readFileSync(join(EGG_FIXTURES_DIR, 'egg-paper.json')));
    panel = await startSimPanel('pglite', {
      overrides: [{ provide: OutboundPolicy, useValue: new OutboundPolicy(true) }],
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'panel@example.test',
        REGISTRATION_ENABLED: 'true',
        EGG_GALLERY_URLS: `${paperHost.url}/egg-paper.json`,
        METRICS_TOKEN: TOUR_METRICS_TOKEN,
      },
      onResponse: (req, reply) => {
        const route = req.routeOptions.url;
        if (route !== undefined) {
          const key = `${req.method} ${route}`;
          answered.set(key, [...(answered.get(key) ?? []), reply.statusCode]);
        }
      },
    });
    mariadb = await MariaDb.connect();
    firstServerId = await reserveServerIds(panel.t, mariadb);
    const prepared = await prepareClientRoutes(panel);
    c = prepared.c;
    closeFiles = prepared.close;
    serverUuid = c.base.slice(c.base.lastIndexOf('/') + 1);
    adminKey = data(await p().admin('post', '/api/account/api-keys').send({ name: 'tour' }).expect(201)).key;
  });

  afterAll(async () => {
    await mariadb?.dropLeftoversOf(Array.from({ length: 1_000 }, (_v, i) => String(firstServerId - 1 + i)));
    await mariadb?.close();
    await panel?.close();
    await closeFiles?.();
    await sink?.close();
    await paperHost?.close();
  });

  it('should serve every client route on a server to its owner', async () => {
    for (const route of serverRoutes()) {
      const res = await ROWS[route.key].send(c, p().asOwner);
      expect({ route: route.key, status: res.status, body: res.status === ROWS[route.key].status ? undefined : res.body }).toEqual({
        route: route.key,
        status: ROWS[route.key].status,
        body: undefined,
      });
    }
    await p().asOwner('get', '/api/client/servers').expect(200);
    await p().asOwner('get', '/api/client/permissions').expect(200);
  });

  it('should sign up, sign in both ways, read the session, and sign out', async () => {
    await p().t.http().get('/api/health').expect(200);
    await p().t.http().get('/api/auth/captcha').expect(200);
    expect(data(await p().t.http().get('/api/settings').expect(200))).toEqual({ appName: 'Hatchery', registrationEnabled: true, fileEditMaxMiB: 4, captcha: null });
    const up = await p().t.http().post('/api/auth/sign-up/email').send({ name: 'Tour', username: 'tourist', email: 'tourist@example.test', password: DEFAULT_PASSWORD }).expect(201);
    expect(data(up).user.username).toBe('tourist');
    await p().t.http().post('/api/auth/sign-in/username').send({ username: 'tourist', password: DEFAULT_PASSWORD }).expect(200);
    const signedIn = await p().t.http().post('/api/auth/sign-in/email').send({ email: 'tourist@example.test', password: DEFAULT_PASSWORD }).expect(200);
    const cookie = sessionCookie(signedIn)!;
    expect(data(await p().t.http().get('/api/auth/session').set('Cookie', cookie).expect(200)).user.email).toBe('tourist@example.test');
    await p().t.http().post('/api/auth/sign-out').set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(204);
    await p().t.http().get('/api/auth/session').set('Cookie', cookie).expect(401);
  });

  it('should reset a forgotten password by the mailed link', async () => {
    await p().t.http().post('/api/auth/forget-password').send({ email: 'tourist@example.test' }).expect(200);
    await p().t.app.get(BackgroundTasks).settled();
    const token = RESET_LINK.exec(sink.to('tourist@example.test').at(-1)?.text ?? '')?.[1];
    expect(token).toBeDefined();
    await p().t.http().post('/api/auth/reset-password').send({ token, newPassword: 'a brand new password' }).expect(204);
    await p().t.http().post('/api/auth/sign-in/email').send({ email: 'tourist@example.test', password: 'a brand new password' }).expect(200);
  });

  it('should sign in with a provider, link it to an account and unlink it', async () => {
    const issuer = await OidcIssuer.start();
    try {
      const admin = p().admin;
      const body = { name: 'Tour IdP', type: 'oidc', issuer: issuer.issuer, clientId: issuer.clientId, clientSecret: issuer.clientSecret, allowRegistration: true };
      const provider = data(await admin('post', '/api/admin/auth-providers').send(body).expect(201));
      issuer.setRedirectUris([provider.redirectUri]);
      await admin('get', '/api/admin/auth-providers').expect(200);
      await admin('get', `/api/admin/auth-providers/${provider.id}`).expect(200);
      await admin('patch', `/api/admin/auth-providers/${provider.id}`).send({ showOnSignIn: true }).expect(200);
      expect(data(await p().t.http().get('/api/auth/providers').expect(200))).toEqual([{ id: provider.id, name: 'Tour IdP', type: 'oidc' }]);
      const flow = async (cookie: string, query: string, sub: string): Promise<Response> => {
        const start = await p().t.http().get(`/api/auth/oauth/${provider.id}${query}`).set('Cookie', cookie).expect(302);
        const state = (start.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('hatchery_oauth='))!.split(';')[0];
        const back = new URL(await issuer.authorize(start.headers.location, sub));
        return p().t.http().get(back.pathname + back.search).set('Cookie', [state, cookie].filter(Boolean).join('; ')).expect(302);
      };
      issuer.accounts.set('tour-new', { email: 'tour-sso@example.test', email_verified: true });
      const made = await flow('', '', 'tour-new');
      expect(made.headers.location).toBe('/');
      // The account it made has no password: it asks for a mailed link to choose one.
      const link = await p().t.http().post('/api/account/password/link').set('Cookie', sessionCookie(made)!).set('Origin', TEST_ORIGIN).expect(200);
      expect(data(link)).toEqual({ sent: true, reason: null, email: 'tour-sso@example.test' });
      const { user, as } = await p().newUser();
      const cookie = await signIn(p().t, user.email);
      issuer.accounts.set('tour-link', { email: 'tour-link@example.test', email_verified: true });
      expect((await flow(cookie, '?link=true', 'tour-link')).headers.location).toBe(`/account?linked=${provider.id}`);
      expect(data(await as('get', '/api/account/identities/providers').expect(200))).toHaveLength(1);
      const [identity] = data(await as('get', '/api/account/identities').expect(200)) as { id: string }[];
      await as('delete', `/api/account/identities/${identity.id}`).expect(204);
      await admin('delete', `/api/admin/auth-providers/${provider.id}`).expect(204);
    } finally {
      await issuer.close();
    }
  });

  it('should keep an account: details, e-mail, password, sessions, API keys, SSH keys, two-factor and passkeys', async () => {
    const { user, as } = await p().newUser();
    expect(data(await as('get', '/api/account').expect(200)).email).toBe(user.email);
    await as('put', '/api/account/email').send({ email: `moved-${user.email}`, password: DEFAULT_PASSWORD }).expect(200);
    await as('put', '/api/account/password').send({ currentPassword: DEFAULT_PASSWORD, newPassword: 'another long password' }).expect(204);
    expect(data(await as('get', '/api/account/activity').expect(200)).map((e: { event: string }) => e.event)).toContain('user.password_changed');

    const sessions = data(await as('get', '/api/account/sessions').expect(200)) as { id: string; current: boolean }[];
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const other = sessionCookie(await p().t.http().post('/api/auth/sign-in/email').send({ email: `moved-${user.email}`, password: 'another long password' }).expect(200))!;
    const otherId = (data(await as('get', '/api/account/sessions').expect(200)) as { id: string; current: boolean }[]).find((s) => !s.current)!.id;
    await as('delete', `/api/account/sessions/${otherId}`).expect(204);
    await p().t.http().get('/api/account').set('Cookie', other).expect(401);
    await as('delete', '/api/account/sessions').expect(204);

    const key = data(await as('post', '/api/account/api-keys').send({ name: 'bot' }).expect(201));
    expect(data(await as('get', '/api/account/api-keys').expect(200))).toHaveLength(1);
    await p().t.http().get('/api/account').set('x-api-key', key.key).expect(200);
    await as('delete', `/api/account/api-keys/${key.identifier}`).expect(204);

    const ssh = data(await as('post', '/api/account/ssh-keys').send({ name: 'laptop', publicKey: sshKeyLine() }).expect(201));
    expect(data(await as('get', '/api/account/ssh-keys').expect(200))).toHaveLength(1);
    await as('delete', `/api/account/ssh-keys/${encodeURIComponent(ssh.fingerprint)}`).expect(204);

    const { secret } = data(await as('post', '/api/user/2fa/setup').expect(200));
    const enabled = data(await as('post', '/api/user/2fa/enable').send({ code: codeAt(secret, p().t.clock.now().getTime()) }).expect(200));
    expect(enabled.recoveryCodes.length).toBeGreaterThan(0);
    const required = await p().t.http().post('/api/auth/sign-in/email').send({ email: `moved-${user.email}`, password: 'another long password' }).expect(401);
    const stepped = await p().t.http().post('/api/auth/two-factor').send({ challenge: required.body.details.challenge, code: enabled.recoveryCodes[0] }).expect(200);
    expect(data(stepped).user.email).toBe(`moved-${user.email}`);
    await as('post', '/api/user/2fa/disable').send({ password: 'another long password' }).expect(204);

    // Passkeys, with the tests' software authenticator: added, then signing in alone and as the second step.
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const creation = data(await as('post', '/api/account/passkeys/options').expect(200)).options;
    const passkey = data(await as('post', '/api/account/passkeys').send({ name: 'tour', response: authenticator.create(creation) }).expect(201));
    expect(data(await as('get', '/api/account/passkeys').expect(200))).toHaveLength(1);
    const request = data(await p().t.http().post('/api/auth/passkey/options').expect(200)).options;
    expect(data(await p().t.http().post('/api/auth/passkey').send({ response: authenticator.get(request) }).expect(200)).user.email).toBe(`moved-${user.email}`);
    const asked = await p().t.http().post('/api/auth/sign-in/email').send({ email: `moved-${user.email}`, password: 'another long password' }).expect(401);
    const challenge = asked.body.details.challenge as string;
    const second = data(await p().t.http().post('/api/auth/two-factor/passkey-options').send({ challenge }).expect(200)).options;
    await p().t.http().post('/api/auth/two-factor').send({ challenge, passkey: authenticator.get(second) }).expect(200);
    await as('patch', `/api/account/passkeys/${passkey.id}`).send({ name: 'tour laptop' }).expect(200);
    await as('delete', `/api/account/passkeys/${passkey.id}`).expect(204);
  });

  it('should administer users, locations, nodes, allocations and the daemon', async () => {
    const admin = p().admin;
    const made = data(await admin('post', '/api/admin/users').send({ username: 'made', email: 'made@example.test', name: 'Made', password: 'a long enough password' }).expect(201));
    expect(data(await admin('get', '/api/admin/users').expect(200)).length).toBeGreaterThan(1);
    await admin('get', `/api/admin/users/${made.id}`).expect(200);
    await admin('patch', `/api/admin/users/${made.id}`).send({ externalId: 'tour-made' }).expect(200);
    await admin('get', '/api/admin/users/external/tour-made').expect(200);
    await admin('patch', `/api/admin/users/${made.id}`).send({ name: 'Made Again' }).expect(200);
    expect(data(await admin('post', `/api/admin/users/${made.id}/suspend`).expect(200)).suspended).toBe(true);
    expect((await p().t.http().post('/api/auth/sign-in/email').send({ email: 'made@example.test', password: 'a long enough password' }).expect(403)).body.code).toBe('ACCOUNT_SUSPENDED');
    await admin('post', `/api/admin/users/${made.id}/unsuspend`).expect(200);
    const madeCookie = sessionCookie(await p().t.http().post('/api/auth/sign-in/email').send({ email: 'made@example.test', password: 'a long enough password' }).expect(200))!;
    const { secret: madeSecret } = data(await p().t.http().post('/api/user/2fa/setup').set('Cookie', madeCookie).set('Origin', TEST_ORIGIN).expect(200));
    await p().t.http().post('/api/user/2fa/enable').set('Cookie', madeCookie).set('Origin', TEST_ORIGIN).send({ code: codeAt(madeSecret, p().t.clock.now().getTime()) }).expect(200);
    expect(data(await admin('delete', `/api/admin/users/${made.id}/two-factor`).expect(200)).twoFactorEnabled).toBe(false);
    expect(data(await admin('post', `/api/admin/users/${made.id}/password-link`).expect(201)).url).toMatch(/\/auth\/password\/reset\?token=/);
    await admin('delete', `/api/admin/users/${made.id}`).expect(204);

    const location = data(await admin('post', '/api/admin/locations').send({ short: 'tour', long: 'Tour lab' }).expect(201));
    await admin('get', '/api/admin/locations').expect(200);
    await admin('patch', `/api/admin/locations/${location.id}`).send({ long: 'Tour lab 2' }).expect(200);
    const node = data(
      await admin('post', '/api/admin/nodes')
        .send({ name: 'spare', fqdn: '127.0.0.1', scheme: 'http', daemonListen: 1, memory: 1024, disk: 1024, locationId: location.id })
        .expect(201),
    );
    await admin('get', '/api/admin/nodes').expect(200);
    await admin('get', `/api/admin/nodes/${node.id}`).expect(200);
    await admin('patch', `/api/admin/nodes/${node.id}`).send({ name: 'spare 2' }).expect(200);
    await admin('post', `/api/admin/nodes/${node.id}/reset-token`).expect(200);
    await admin('post', `/api/admin/nodes/${node.id}/allocations`).send({ ip: '0.0.0.0', ports: ['30000-30001'] }).expect(201);
    const allocations = data(await admin('get', `/api/admin/nodes/${node.id}/allocations`).expect(200)) as { id: string }[];
    await admin('delete', `/api/admin/nodes/${node.id}/allocations/${allocations[0].id}`).expect(204);
    await admin('delete', `/api/admin/nodes/${node.id}/allocations/${allocations[1].id}`).expect(204);
    await admin('delete', `/api/admin/nodes/${node.id}`).expect(204);
    await admin('delete', `/api/admin/locations/${location.id}`).expect(204);
    await admin('get', `/api/admin/locations/${data(await admin('get', '/api/admin/locations').expect(200))[0].id}`).expect(200);

    // The simulator's node, through its daemon.
    await admin('get', `/api/admin/nodes/${p().nodeId}/system`).expect(200);
    await admin('get', `/api/admin/daemon/system?node=${p().nodeId}`).expect(200);
    const overview = data(await admin('get', '/api/admin/overview').expect(200));
    expect(overview.health.nodes).toContainEqual(expect.objectContaining({ id: p().nodeId, status: 'reachable' }));
    const config = data(await withKey('get', `/api/admin/daemon/nodes/${p().nodeId}/configuration`).expect(200));
    nodeAuth = `Bearer ${config.token_id}.${config.token}`;
  });

  it('should keep nests and eggs: create, import from a URL, edit, variables, export, delete', async () => {
    const admin = p().admin;
    const nest = data(await admin('post', '/api/admin/nests').send({ name: 'Tour' }).expect(201));
    await admin('get', '/api/admin/nests').expect(200);
    await admin('get', `/api/admin/nests/${nest.id}`).expect(200);
    await admin('patch', `/api/admin/nests/${nest.id}`).send({ description: 'Eggs of the tour' }).expect(200);

    const egg = data(
      await admin('post', '/api/admin/eggs')
        .send({ nestId: nest.id, name: 'Tour Egg', dockerImage: 'ghcr.io/pterodactyl/yolks:java_21', startup: 'java -jar {{JAR}}' })
        .expect(201),
    );
    await admin('get', '/api/admin/eggs').expect(200);
    await admin('get', `/api/admin/eggs/${egg.id}`).expect(200);
    await admin('patch', `/api/admin/eggs/${egg.id}`).send({ description: 'Edited' }).expect(200);
    const variable = data(await admin('post', `/api/admin/eggs/${egg.id}/variables`).send({ name: 'Jar', envVariable: 'JAR', defaultValue: 'server.jar', rules: 'required|string|max:64' }).expect(201));
    await admin('get', `/api/admin/eggs/${egg.id}/variables`).expect(200);
    await admin('patch', `/api/admin/eggs/${egg.id}/variables/${variable.id}`).send({ rules: 'required|string|max:32' }).expect(200);
    await admin('delete', `/api/admin/eggs/${egg.id}/variables/${variable.id}`).expect(204);
    const exported = await admin('get', `/api/admin/eggs/${egg.id}/export`).expect(200);
    expect(exported.body.meta.version).toBe('PTDL_v2');

    const gallery = data(await admin('get', '/api/admin/eggs/gallery').expect(200)) as { name: string }[];
    expect(gallery.map((entry) => entry.name)).toEqual(['Paper']);
    const imported = data(await admin('post', '/api/admin/eggs/import-url').send({ nestId: nest.id, url: `${paperHost!.url}/egg-paper.json` }).expect(201));
    await admin('get', `/api/admin/eggs/${imported.id}/update-preview`).expect(200);
    await admin('post', `/api/admin/eggs/${imported.id}/update`).expect(200);
    await admin('delete', `/api/admin/eggs/${imported.id}`).expect(204);
    await admin('delete', `/api/admin/eggs/${egg.id}`).expect(204);
    await admin('delete', `/api/admin/nests/${nest.id}`).expect(204);
    await admin('get', '/api/admin/audit-logs').expect(200);
    // The run-time settings: a change that leaves the policy as it was (none) still answers it.
    expect(data(await admin('get', '/api/admin/settings').expect(200))).toEqual({ twoFactorPolicy: 'none' });
    expect(data(await admin('patch', '/api/admin/settings').send({ twoFactorPolicy: 'none' }).expect(200))).toEqual({ twoFactorPolicy: 'none' });
    // Administrator roles: made, given, read, changed and deleted.
    const role = data(await admin('post', '/api/admin/roles').send({ name: 'Tour support', permissions: [{ area: 'users', access: 'read' }] }).expect(201));
    await admin('get', '/api/admin/roles').expect(200);
    await admin('get', `/api/admin/roles/${role.id}`).expect(200);
    await admin('patch', `/api/admin/roles/${role.id}`).send({ permissions: [{ area: 'users', access: 'write' }] }).expect(200);
    await admin('delete', `/api/admin/roles/${role.id}`).expect(204);
  });

  it('should administer servers, their mounts and database hosts', async () => {
    const admin = p().admin;
    const server = await p().createServer({ name: 'Admin Tour', external_id: 'tour-billing-1' });
    await p().installed(server.id);
    await admin('get', '/api/admin/servers').expect(200);
    expect(data(await admin('get', '/api/admin/servers?search=admin%20tour').expect(200))).toEqual([expect.objectContaining({ id: server.id })]);
    expect(data(await admin('get', '/api/admin/servers/node-usage').expect(200))).toContainEqual(expect.objectContaining({ nodeId: p().nodeId }));
    expect(data(await admin('get', `/api/admin/servers/${server.id}/startup`).expect(200))).toMatchObject({ variables: expect.any(Array) });
    await admin('get', '/api/admin/servers/external/tour-billing-1').expect(200);
    await admin('patch', `/api/admin/servers/${server.id}`).send({ name: 'Admin Tour 2' }).expect(200);
    await admin('patch', `/api/admin/servers/${server.id}/build`).send({ memory: 4096 }).expect(200);
    await admin('patch', `/api/admin/servers/${server.id}/startup`).send({ environment: { BUILD_NUMBER: '42' } }).expect(200);
    await admin('post', `/api/admin/servers/${server.id}/suspend`).expect(200);
    await admin('post', `/api/admin/servers/${server.id}/unsuspend`).expect(200);
    await admin('post', `/api/admin/servers/${server.id}/reinstall`).expect(202);
    await p().installed(server.id);
    // Mounts: defined, linked to the server's egg and node, attached, shown to the owner, detached.
    const mount = data(await admin('post', '/api/admin/mounts').send({ name: 'Tour maps', source: '/srv/tour-maps', target: '/mnt/maps' }).expect(201));
    await admin('get', '/api/admin/mounts?search=tour').expect(200);
    await admin('patch', `/api/admin/mounts/${mount.id}`).send({ readOnly: true }).expect(200);
    await admin('post', `/api/admin/mounts/${mount.id}/eggs`).send({ eggIds: [p().eggId] }).expect(200);
    await admin('post', `/api/admin/mounts/${mount.id}/nodes`).send({ nodeIds: [p().nodeId] }).expect(200);
    await admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200);
    expect(data(await admin('get', `/api/admin/servers/${server.id}/mounts`).expect(200))).toEqual([expect.objectContaining({ id: mount.id, attached: true })]);
    expect(data(await p().asOwner('get', `/api/client/servers/${server.uuid}/mounts`).expect(200))).toEqual([expect.objectContaining({ target: '/mnt/maps', readOnly: true })]);
    expect((await admin('delete', `/api/admin/mounts/${mount.id}`).expect(409)).body.code).toBe('MOUNT_IN_USE');
    await admin('get', `/api/admin/mounts/${mount.id}`).expect(200);
    await admin('delete', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200);
    await admin('delete', `/api/admin/mounts/${mount.id}/eggs/${p().eggId}`).expect(200);
    await admin('delete', `/api/admin/mounts/${mount.id}/nodes/${p().nodeId}`).expect(200);
    await admin('delete', `/api/admin/mounts/${mount.id}`).expect(204);
    // Deletes the foreign keys refuse while the server exists, mapped to their 409s on PGlite too.
    expect((await admin('delete', `/api/admin/users/${p().owner.id}`).expect(409)).body.code).toBe('USER_HAS_SERVERS');
    expect((await admin('delete', `/api/admin/nodes/${p().nodeId}`).expect(409)).body.code).toBe('NODE_HAS_SERVERS');
    expect((await admin('delete', `/api/admin/eggs/${p().eggId}`).expect(409)).body.code).toBe('EGG_IN_USE');
    await admin('delete', `/api/admin/servers/${server.id}`).expect(204);

    // Webhooks: an administrator's hears the deletion above, delivered by the job to a local receiver.
    const rx = new WebhookReceiver();
    await rx.start();
    try {
      const hook = data(await admin('post', '/api/admin/webhooks').send({ name: 'Tour', kind: 'http', url: rx.url('/tour'), events: ['server.deleted'] }).expect(201));
      await admin('get', '/api/admin/webhooks').expect(200);
      await admin('patch', `/api/admin/webhooks/${hook.id}`).send({ events: ['server.created', 'server.deleted'] }).expect(200);
      expect(data(await admin('post', `/api/admin/webhooks/${hook.id}/test`).expect(200))).toMatchObject({ status: 'delivered' });
      const doomed = await p().createServer({ name: 'Tour doomed' });
      await p().installed(doomed.id);
      await admin('delete', `/api/admin/servers/${doomed.id}`).expect(204);
      await p().t.app.get(WebhookDeliveryJob).drain();
      // Due deliveries go out side by side: in any order.
      expect(rx.eventsAt('/tour').sort()).toEqual(['server.created', 'server.deleted', 'webhook.test']);
      expect((data(await admin('get', `/api/admin/webhooks/${hook.id}/deliveries`).expect(200)) as { status: string }[]).map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
      await admin('get', `/api/admin/webhooks/${hook.id}`).expect(200);
      await admin('delete', `/api/admin/webhooks/${hook.id}`).expect(204);
    } finally {
      await rx.close();
    }

    const busy = (data(await admin('get', '/api/admin/database-hosts').expect(200)) as { id: string; databases: number }[]).find((h) => h.databases > 0)!;
    expect((await admin('delete', `/api/admin/database-hosts/${busy.id}`).expect(409)).body.code).toBe('DATABASE_HOST_HAS_DATABASES');
    const host = data(await admin('post', '/api/admin/database-hosts').send(testHostBody()).expect(201));
    await admin('get', '/api/admin/database-hosts').expect(200);
    await admin('get', `/api/admin/database-hosts/${host.id}`).expect(200);
    await admin('patch', `/api/admin/database-hosts/${host.id}`).send({ maxDatabases: 5 }).expect(200);
    expect(data(await admin('post', `/api/admin/database-hosts/${host.id}/test`).expect(200))).toMatchObject({ connected: true });
    await admin('delete', `/api/admin/database-hosts/${host.id}`).expect(204);
  });

  it('should keep backup hosts and send a backup to S3 through the node and back', async () => {
    const admin = p().admin;
    const s3 = await startTestS3();
    try {
      const body = { name: 'Tour bucket', adapter: 's3', endpoint: s3.endpoint, bucket: s3.bucket, accessKeyId: s3.credentials.accessKeyId, secretAccessKey: s3.credentials.secretAccessKey, pathStyle: true };
      const host = data(await admin('post', '/api/admin/backup-hosts').send(body).expect(201));
      await admin('get', '/api/admin/backup-hosts').expect(200);
      await admin('get', `/api/admin/backup-hosts/${host.id}`).expect(200);
      await admin('patch', `/api/admin/backup-hosts/${host.id}`).send({ partSizeMib: 5 }).expect(200);
      expect(data(await admin('post', `/api/admin/backup-hosts/${host.id}/test`).expect(200))).toEqual({ ok: true });
      await admin('patch', `/api/admin/nodes/${p().nodeId}`).send({ backupHostId: host.id }).expect(200);
      const server = await p().createServer({ name: 'S3 Tour', backup_limit: 1 });
      await p().installed(server.id);
      const base = `/api/client/servers/${server.uuid}/backups`;
      const started = data(await p().asOwner('post', base).send({}).expect(201));
      // The node asks GET /api/remote/backups/{uuid}?size= for its part URLs.
      const done = await waitFor(async () => {
        const b = data(await p().asOwner('get', `${base}/${started.id}`).expect(200));
        return b.status === 'in_progress' ? undefined : b;
      });
      expect(done.status).toBe('successful');
      expect(await s3.objectSize(`${server.uuid}/${started.uuid}.tar.gz`)).toBe(done.bytes);
      await p().asOwner('delete', `${base}/${started.id}`).expect(204);
      await admin('patch', `/api/admin/nodes/${p().nodeId}`).send({ backupHostId: null }).expect(200);
      await admin('delete', `/api/admin/servers/${server.id}`).expect(204);
      await admin('delete', `/api/admin/backup-hosts/${host.id}`).expect(204);
    } finally {
      await s3.close();
    }
  });

  it("should answer a node's daemon: boot list, configuration, install, SFTP, activity and reset", async () => {
    expect(data(await remote('get', '/api/remote/servers?page=0&per_page=50').expect(200)).length).toBeGreaterThan(0);
    expect((await remote('get', `/api/remote/servers/${serverUuid}`).expect(200)).body.settings.uuid).toBe(serverUuid);
    await remote('get', `/api/remote/servers/${serverUuid}/install`).expect(200);
    await remote('post', `/api/remote/servers/${serverUuid}/install`).send({ successful: true, reinstall: false }).expect(204);
    const identifier = serverUuid.slice(0, 8);
    const sftp = await remote('post', '/api/remote/sftp/auth')
      .send({ type: 'password', username: `${p().owner.username}.${identifier}`, password: DEFAULT_PASSWORD, ip: '203.0.113.9', session_id: 'c2Vzc2lvbg==', client_version: 'U1NILTIuMA==' })
      .expect(200);
    expect(sftp.body).toMatchObject({ server: serverUuid, permissions: ['*'] });
    await remote('post', '/api/remote/activity')
      .send({ data: [{ user: null, server: serverUuid, event: 'server:console.command', metadata: { command: 'list' }, ip: '203.0.113.9', timestamp: new Date().toISOString() }] })
      .expect(204);
    await remote('post', '/api/remote/servers/reset').expect(204);
    await p().t.app.get(ScheduleRunner).whenIdle();
  });

  it('should give every id as a string, as on PostgreSQL: the driver types them, nothing converts them on the way out', async () => {
    const checked: string[] = [];
    const notStrings: string[] = [];
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) {
        value.forEach((v, i) => walk(v, `${at}[${i}]`));
      } else if (value !== null && typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) {
          // sequence_id is a task's position, a number by design.
          if ((key === 'id' || /[a-z](Id|_id)$/.test(key)) && key !== 'sequence_id' && v !== null) {
            checked.push(`${at}.${key}`);
            if (typeof v !== 'string') {
              notStrings.push(`${at}.${key} = ${JSON.stringify(v)}`);
            }
          }
          walk(v, `${at}.${key}`);
        }
      }
    };
    const admin = ['/api/admin/users', '/api/admin/servers', '/api/admin/nodes', '/api/admin/locations', `/api/admin/nodes/${p().nodeId}/allocations`, `/api/admin/nodes/${p().nodeId}/resources/history?range=24h`, '/api/admin/database-hosts', '/api/admin/audit-logs', '/api/admin/mounts'];
    const owner = ['/api/client/servers', c.base, `${c.base}/activity`, `${c.base}/activity?event=server.*`, `${c.base}/resources/history?range=7d`, `${c.base}/network/allocations`, `${c.base}/databases`, `${c.base}/schedules`, `${c.base}/users`, `${c.base}/backups`];
    for (const path of admin) {
      walk((await p().admin('get', path).expect(200)).body, `GET ${path}`);
    }
    for (const path of owner) {
      walk((await p().asOwner('get', path).expect(200)).body, `GET ${path}`);
    }
    expect(notStrings).toEqual([]);
    expect(checked.length).toBeGreaterThan(100);
  });

  it('should stream a server\'s live status over the WebSocket', async () => {
    const url = `${(await p().t.app.getUrl()).replace(/^http/, 'ws')}/api/ws`;
    const client = await LiveClient.connect(url, { Cookie: p().ownerCookie, Origin: TEST_ORIGIN });
    expect(await client.subscribe([serverUuid])).toEqual([serverUuid]);
    const frame = await client.next((f) => f.event === 'resources');
    expect(Object.keys(frame.data)).toEqual([serverUuid]);
    expect(frame.data[serverUuid].resources).toEqual(expect.objectContaining({ memoryBytes: expect.any(Number), uptime: expect.any(Number) }));
    await client.close();
    // ws answers the upgrade on the socket Fastify handed over, so no onResponse hook sees it: the client's 101 counts.
    answered.set('GET /api/ws', [...(answered.get('GET /api/ws') ?? []), client.upgradeStatus]);
  });

  it('should serve the Pterodactyl client API to a client key, and refuse what Hatchery keeps to sessions and administrators', async () => {
    const server = await p().createServer({ name: 'Ptero tour', backup_limit: 5, database_limit: 2 });
    await p().installed(server.id);
    const sid = data(await p().asOwner('get', `/api/client/servers/${server.uuid}`).expect(200)).identifier as string;
    const key = (await createPterodactylKey(p().t, p().ownerCookie, 'client')).key;
    const pt = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
      p().t.http()[method](`/pterodactyl/api/client${path}`).set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${key}`);
    const s = `/servers/${sid}`;

    await pt('get', '/').expect(200);
    await pt('get', '/permissions').expect(200);
    await pt('get', '/account').expect(200);
    await pt('get', '/account/api-keys').expect(200);
    const extra = (await pt('post', '/account/api-keys').send({ description: 'tour' }).expect(200)).body.attributes.identifier as string;
    await pt('delete', `/account/api-keys/${extra}`).expect(204);
    await pt('get', '/account/ssh-keys').expect(200);
    const fingerprint = (await pt('post', '/account/ssh-keys').send({ name: 'tour', public_key: sshKeyLine() }).expect(200)).body.attributes.fingerprint as string;
    await pt('post', '/account/ssh-keys/remove').send({ fingerprint }).expect(204);
    // E-mail, two-factor and password on an account of their own: the password change ends the account's sessions.
    const { user: keeper, as: keeperAs } = await p().newUser();
    const keeperKey = data(await keeperAs('post', '/api/account/pterodactyl-keys').send({ description: 'tour account' }).expect(201)).key as string;
    const kt = (method: 'get' | 'post' | 'put', path: string) =>
      p().t.http()[method](`/pterodactyl/api/client${path}`).set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${keeperKey}`);
    await kt('put', '/account/email').send({ email: `moved-${keeper.email}`, password: DEFAULT_PASSWORD }).expect(204);
    const totpSecret = (await kt('get', '/account/two-factor').expect(200)).body.data.secret as string;
    await kt('post', '/account/two-factor').send({ code: codeAt(totpSecret, p().t.clock.now().getTime()), password: DEFAULT_PASSWORD }).expect(200);
    await kt('post', '/account/two-factor/disable').send({ password: DEFAULT_PASSWORD }).expect(204);
    await kt('put', '/account/password').send({ current_password: DEFAULT_PASSWORD, password: 'another long password', password_confirmation: 'another long password' }).expect(204);
    expect((await kt('get', '/account/activity').expect(200)).body.meta.pagination.total).toBe(4);

    await pt('get', s).expect(200);
    await pt('get', `${s}/resources`).expect(200);
    await pt('get', `${s}/websocket`).expect(200);
    await pt('post', `${s}/power`).send({ signal: 'start' }).expect(204);
    await waitFor(() => p().sim.servers.get(server.uuid)?.state === 'running');
    await pt('post', `${s}/command`).send({ command: 'list' }).expect(204);
    await pt('get', `${s}/activity`).expect(200);

    await pt('post', `${s}/files/write?file=/tour.txt`).set('Content-Type', 'text/plain').send('tour').expect(204);
    await pt('get', `${s}/files/contents?file=/tour.txt`).expect(200);
    await pt('get', `${s}/files/list?directory=/`).expect(200);
    await pt('get', `${s}/files/download?file=/tour.txt`).expect(200);
    await pt('get', `${s}/files/upload`).expect(200);
    await pt('post', `${s}/files/create-folder`).send({ root: '/', name: 'tourdir' }).expect(204);
    await pt('post', `${s}/files/copy`).send({ location: '/tour.txt' }).expect(204);
    await pt('put', `${s}/files/rename`).send({ root: '/', files: [{ from: 'tour.txt', to: 'moved.txt' }] }).expect(204);
    await pt('post', `${s}/files/chmod`).send({ root: '/', files: [{ file: 'moved.txt', mode: 644 }] }).expect(204);
    const archive = (await pt('post', `${s}/files/compress`).send({ root: '/', files: ['moved.txt'] }).expect(200)).body.attributes.name as string;
    await pt('post', `${s}/files/decompress`).send({ root: '/', file: archive }).expect(204);
    await pt('post', `${s}/files/pull`).send({ url: `${c.pullUrl}/tour.bin`, directory: '/' }).expect(204);
    await pt('post', `${s}/files/delete`).send({ root: '/', files: ['moved.txt'] }).expect(204);

    const backup = (await pt('post', `${s}/backups`).send({ name: 'tour' }).expect(200)).body.attributes.uuid as string;
    await waitFor(async () => (await pt('get', `${s}/backups/${backup}`).expect(200)).body.attributes.completed_at !== null);
    await pt('get', `${s}/backups`).expect(200);
    await pt('get', `${s}/backups/${backup}/download`).expect(200);
    await pt('post', `${s}/backups/${backup}/lock`).expect(200);
    await pt('post', `${s}/backups/${backup}/lock`).expect(200);
    await pt('post', `${s}/power`).send({ signal: 'kill' }).expect(204);
    await waitFor(() => p().sim.servers.get(server.uuid)?.state === 'offline');
    await pt('post', `${s}/backups/${backup}/restore`).send({ truncate: false }).expect(204);
    await p().installed(server.id);
    await pt('delete', `${s}/backups/${backup}`).expect(204);

    const cron = { minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*' };
    const schedule = (await pt('post', `${s}/schedules`).send({ name: 'tour', ...cron, is_active: true }).expect(200)).body.attributes.id as number;
    await pt('get', `${s}/schedules`).expect(200);
    await pt('get', `${s}/schedules/${schedule}`).expect(200);
    await pt('post', `${s}/schedules/${schedule}`).send({ name: 'tour 2', ...cron, is_active: true }).expect(200);
    const task = (await pt('post', `${s}/schedules/${schedule}/tasks`).send({ action: 'command', payload: 'list', time_offset: 0 }).expect(200)).body.attributes.id as number;
    await pt('post', `${s}/schedules/${schedule}/execute`).expect(202);
    await pt('delete', `${s}/schedules/${schedule}/tasks/${task}`).expect(204);
    await pt('delete', `${s}/schedules/${schedule}`).expect(204);

    const database = (await pt('post', `${s}/databases`).send({ database: 'tour', remote: '%' }).expect(200)).body.attributes.id as string;
    await pt('get', `${s}/databases`).expect(200);
    await pt('post', `${s}/databases/${database}/rotate-password`).expect(200);
    await pt('delete', `${s}/databases/${database}`).expect(204);

    const allocation = (await pt('get', `${s}/network/allocations`).expect(200)).body.data[0].attributes.id as number;
    await pt('post', `${s}/network/allocations/${allocation}`).send({ notes: 'tour' }).expect(200);
    await pt('post', `${s}/network/allocations/${allocation}/primary`).expect(200);
    await p().admin('patch', `/api/admin/servers/${server.id}/build`).send({ allocation_limit: 2 }).expect(200);
    const added = (await pt('post', `${s}/network/allocations`).expect(200)).body.attributes.id as number;
    await pt('delete', `${s}/network/allocations/${added}`).expect(204);

    const friend = await p().newUser();
    const uuid = (await pt('post', `${s}/users`).send({ email: friend.user.email, permissions: ['control.console'] }).expect(200)).body.attributes.uuid as string;
    await pt('get', `${s}/users`).expect(200);
    await pt('get', `${s}/users/${uuid}`).expect(200);
    await pt('post', `${s}/users/${uuid}`).send({ permissions: ['file.read', 'file.read-content'] }).expect(200);
    await pt('delete', `${s}/users/${uuid}`).expect(204);

    await pt('get', `${s}/startup`).expect(200);
    await pt('put', `${s}/startup/variable`).send({ key: 'SERVER_JARFILE', value: 'server.jar' }).expect(200);
    const images = Object.values((await pt('get', `${s}/startup`).expect(200)).body.meta.docker_images as Record<string, string>);
    await pt('put', `${s}/settings/docker-image`).send({ docker_image: images[images.length - 1] }).expect(204);
    await pt('post', `${s}/settings/rename`).send({ name: 'Ptero tour 2' }).expect(204);
    await pt('post', `${s}/settings/reinstall`).expect(202);
    await p().installed(server.id);
  });

  it('should answer the Pterodactyl layer: its keys, and every application route with an application key', async () => {
    const admin = p().admin;
    const clientKey = data(await p().asOwner('post', '/api/account/pterodactyl-keys').send({ description: 'tour bot' }).expect(201));
    await p().asOwner('get', '/api/account/pterodactyl-keys').expect(200);
    await p().asOwner('delete', `/api/account/pterodactyl-keys/${clientKey.identifier}`).expect(204);
    const permissions = { servers: 3, nodes: 3, allocations: 3, users: 3, locations: 3, nests: 3, eggs: 3, database_hosts: 3, server_databases: 3 };
    const appKey = data(await admin('post', '/api/admin/pterodactyl-keys').send({ description: 'tour billing', permissions }).expect(201));
    await admin('get', '/api/admin/pterodactyl-keys').expect(200);
    const ptero = (method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
      p().t.http()[method](`/api/application${path}`).set('Authorization', `Bearer ${appKey.key}`).set('Accept', 'Application/vnd.pterodactyl.v1+json');

    const user = (await ptero('post', '/users').send({ email: 'ptero@example.test', username: 'ptero', first_name: 'Ptero', last_name: 'Dactyl', external_id: 'tour-ptero' }).expect(201)).body.attributes;
    await ptero('get', '/users?filter[email]=ptero@example.test').expect(200);
    await ptero('get', `/users/${user.id}`).expect(200);
    await ptero('get', '/users/external/tour-ptero').expect(200);
    await ptero('patch', `/users/${user.id}`).send({ first_name: 'Petra' }).expect(200);
    await ptero('delete', `/users/${user.id}`).expect(204);

    const location = (await ptero('post', '/locations').send({ short: 'ptero-tour', long: 'Ptero lab' }).expect(201)).body.attributes;
    await ptero('get', '/locations').expect(200);
    await ptero('get', `/locations/${location.id}`).expect(200);
    await ptero('patch', `/locations/${location.id}`).send({ long: 'Ptero lab 2' }).expect(200);
    const node = (await ptero('post', '/nodes').send({ name: 'ptero spare', location_id: location.id, fqdn: '127.0.0.1', scheme: 'http', daemon_listen: 2, memory: 1024, disk: 1024 }).expect(201)).body.attributes;
    await ptero('get', '/nodes?include=location').expect(200);
    await ptero('get', '/nodes/deployable?memory=128&disk=128').expect(200);
    await ptero('get', `/nodes/${node.id}?include=allocations`).expect(200);
    await ptero('get', `/nodes/${node.id}/configuration`).expect(200);
    await ptero('patch', `/nodes/${node.id}`).send({ name: 'ptero spare 2' }).expect(200);
    await ptero('post', `/nodes/${node.id}/allocations`).send({ ip: '0.0.0.0', ports: ['31000'] }).expect(204);
    const allocation = (await ptero('get', `/nodes/${node.id}/allocations`).expect(200)).body.data[0].attributes;
    await ptero('delete', `/nodes/${node.id}/allocations/${allocation.id}`).expect(204);
    await ptero('delete', `/nodes/${node.id}`).expect(204);
    await ptero('delete', `/locations/${location.id}`).expect(204);

    const nest = (await ptero('get', '/nests').expect(200)).body.data[0].attributes;
    await ptero('get', `/nests/${nest.id}?include=eggs`).expect(200);
    const egg = (await ptero('get', `/nests/${nest.id}/eggs`).expect(200)).body.data[0].attributes;
    // The layer hands PGlite's integers over as JSON numbers too.
    expect([typeof nest.id, typeof egg.id, typeof user.id, typeof node.id]).toEqual(['number', 'number', 'number', 'number']);
    await ptero('get', `/nests/${nest.id}/eggs/${egg.id}?include=variables`).expect(200);

    const paper = (await ptero('get', `/nests/${nest.id}/eggs`).expect(200)).body.data.find((e: { attributes: { uuid: string } }) => e.attributes.uuid === p().eggId).attributes;
    const simNode = (await ptero('get', `/nodes/${p().nodeId}`).expect(200)).body.attributes;
    const body = {
      name: 'Ptero Tour',
      user: Number(p().owner.id),
      egg: paper.id,
      environment: { SERVER_JARFILE: 'server.jar' },
      limits: { memory: 512, swap: 0, disk: 512, io: 500, cpu: 50 },
      feature_limits: { databases: 1, allocations: 0, backups: 0 },
    };
    const server = (await ptero('post', '/servers').send({ ...body, external_id: 'tour-ptero-server', deploy: { locations: [simNode.location_id], dedicated_ip: false, port_range: [] } }).expect(201)).body.attributes;
    await p().installed(String(server.id));
    await ptero('get', '/servers').expect(200);
    await ptero('get', `/servers/${server.id}`).expect(200);
    await ptero('get', '/servers/external/tour-ptero-server').expect(200);
    await ptero('patch', `/servers/${server.id}/details`).send({ name: 'Ptero Tour 2' }).expect(200);
    await ptero('patch', `/servers/${server.id}/build`).send({ allocation: server.allocation, limits: { memory: 768 }, feature_limits: { databases: 1, allocations: 0, backups: 0 } }).expect(200);
    await ptero('patch', `/servers/${server.id}/startup`).send({ environment: { SERVER_JARFILE: 'paper.jar' }, egg: paper.id, skip_scripts: false }).expect(200);
    const dbHost = Number((data(await admin('get', '/api/admin/database-hosts').expect(200)) as { id: string }[])[0].id);
    const database = (await ptero('post', `/servers/${server.id}/databases?include=password`).send({ database: 'tour', remote: '%', host: dbHost }).expect(201)).body.attributes;
    await ptero('get', `/servers/${server.id}/databases?include=host`).expect(200);
    await ptero('get', `/servers/${server.id}/databases/${database.id}`).expect(200);
    await ptero('post', `/servers/${server.id}/databases/${database.id}/reset-password`).expect(204);
    await ptero('delete', `/servers/${server.id}/databases/${database.id}`).expect(204);
    await ptero('post', `/servers/${server.id}/suspend`).expect(204);
    await ptero('post', `/servers/${server.id}/unsuspend`).expect(204);
    await ptero('post', `/servers/${server.id}/reinstall`).expect(204);
    await p().installed(String(server.id));
    await ptero('delete', `/servers/${server.id}`).expect(204);
    const free = (await ptero('get', `/nodes/${p().nodeId}/allocations?per_page=100`).expect(200)).body.data.find((a: { attributes: { assigned: boolean } }) => !a.attributes.assigned).attributes;
    const second = (await ptero('post', '/servers').send({ ...body, allocation: { default: free.id } }).expect(201)).body.attributes;
    await p().installed(String(second.id));
    await ptero('delete', `/servers/${second.id}/force`).expect(204);
    await admin('delete', `/api/admin/pterodactyl-keys/${appKey.identifier}`).expect(204);
  });

  it('should move a server between two nodes: transfer, cancel, failure and success reports, drain', async () => {
    const admin = p().admin;
    const second = await addSimNode(p(), 'tour-target', '25700-25709');
    try {
      const auth = async (nodeId: string) => {
        const config = data(await withKey('get', `/api/admin/daemon/nodes/${nodeId}/configuration`).expect(200));
        return `Bearer ${config.token_id}.${config.token}`;
      };
      const [firstAuth, secondAuth] = [await auth(p().nodeId), await auth(second.nodeId)];
      const report = (method: 'get' | 'post', uuid: string, outcome: 'success' | 'failure', as: string) =>
        p().t.http()[method](`/api/remote/servers/${uuid}/transfer/${outcome}`).set('Authorization', as).expect(204);
      const server = await p().createServer({ name: 'Transfer tour' });
      await p().installed(server.id);
      const path = `/api/admin/servers/${server.id}/transfer`;
      const free = async (nodeId: string) => (data(await admin('get', `/api/admin/nodes/${nodeId}/allocations?perPage=100`).expect(200)) as { id: string; serverId: string | null }[]).find((a) => a.serverId === null)!.id;
      // Restoring, and the target has taken the whole archive in (so the server is not still arriving when the tour reports).
      const restoring = async (target = second.sim) => {
        await waitFor(async () => data(await admin('get', path).expect(200)).state === 'restoring');
        await waitFor(() => target.servers.get(server.uuid)?.transferring === false);
      };
      // The targets never report by themselves here: the reports below are the tour's.
      second.sim.faults.transferTargetSilent = true;
      p().sim.faults.transferTargetSilent = true;

      await admin('post', path).send({ nodeId: second.nodeId, allocationId: await free(second.nodeId) }).expect(202);
      await restoring();
      expect(data(await admin('delete', path).expect(202)).state).toBe('cancelled');
      await admin('post', path).send({ nodeId: second.nodeId, allocationId: await free(second.nodeId) }).expect(202);
      await restoring();
      await report('get', server.uuid, 'failure', secondAuth);
      await admin('post', path).send({ nodeId: second.nodeId, allocationId: await free(second.nodeId) }).expect(202);
      await restoring();
      await report('post', server.uuid, 'failure', secondAuth);
      await admin('post', path).send({ nodeId: second.nodeId, allocationId: await free(second.nodeId) }).expect(202);
      await restoring();
      await report('get', server.uuid, 'success', secondAuth);
      expect(data(await admin('get', `/api/admin/servers/${server.id}`).expect(200)).nodeId).toBe(second.nodeId);

      // Draining the second node moves it back (the tour's servers fill the first node: more room there from now on).
      await admin('patch', `/api/admin/nodes/${p().nodeId}`).send({ memoryOverallocate: -1, diskOverallocate: -1 }).expect(200);
      await admin('post', `/api/admin/nodes/${p().nodeId}/allocations`).send({ ip: '0.0.0.0', ports: ['25800-25801'] }).expect(201);
      const drain = data(await admin('post', `/api/admin/nodes/${second.nodeId}/drain`).send({ targetNodeIds: [p().nodeId], concurrency: 1 }).expect(202));
      expect([drain.total, drain.unplaced]).toEqual([1, 0]);
      await restoring(p().sim);
      expect(data(await admin('get', `/api/admin/nodes/${second.nodeId}/drain`).expect(200)).running).toBe(1);
      expect(data(await admin('delete', `/api/admin/nodes/${second.nodeId}/drain`).expect(202)).state).toBe('stopped');
      await report('post', server.uuid, 'success', firstAuth);
      expect(data(await admin('get', `/api/admin/servers/${server.id}`).expect(200)).nodeId).toBe(p().nodeId);
    } finally {
      p().sim.resetFaults();
      await second.sim.stop();
    }
  });

  it('should sample usage and serve it as history and as Prometheus metrics', async () => {
    // Every node is asked (the tour's spare nodes have no daemon: they are sampled as unreachable).
    const pass = await p().t.app.get(UsageSamplerJob).sample();
    expect(pass?.nodes).toBeGreaterThan(pass?.unreachable ?? 0);
    const scrape = await p().t.http().get('/metrics').set('Authorization', `Bearer ${TOUR_METRICS_TOKEN}`).expect(200);
    expect(scrape.text).toContain(`hatchery_node_up{node="${p().nodeId}"} 1`);
    expect(scrape.text).toMatch(/^hatchery_servers\{state="ready"\} [1-9]/m);
    // Per-server series only with METRICS_PER_SERVER.
    expect(scrape.text).not.toContain('hatchery_server_cpu_percent{');
  });

  it('should have answered 2xx on every route of the app at least once (101 for the WebSocket upgrade)', () => {
    // A sign-in provider's start and callback are browser navigations: their success is a redirect.
    const redirects = new Set(['GET /api/auth/oauth/:id', 'GET /api/auth/oauth/:id/callback']);
    const success = (key: string, status: number) => (status >= 200 && status < 300) || (key === 'GET /api/ws' && status === 101) || (redirects.has(key) && status === 302);
    const routes = listRoutes(AppModule);
    const never = routes
      .map((r) => r.key)
      .filter((key) => !(answered.get(key) ?? []).some((status) => success(key, status)));
    expect(never).toEqual([]);
  });
});
