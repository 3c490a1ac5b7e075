import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Response } from 'supertest';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { sessionCookie, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { Json } from 'test/utils/nodes';
import { createPterodactylKey, PTERODACTYL_ACCEPT, pterodactylError } from 'test/utils/pterodactyl';
import { dbKinds } from 'test/utils/test-db';

/** The code an authenticator app shows for `secret` at `ms`, computed independently of the panel. */
const codeAt = (secret: string, ms: number): string => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

const STEP_MS = 30_000;

/** A 6-digit code of no step the panel accepts at `ms` (the current one, and one either side for clock drift). */
const refusedCode = (secret: string, ms: number): string => {
  const accepted = [-STEP_MS, 0, STEP_MS].map((d) => codeAt(secret, ms + d));
  let code = accepted[1];
  while (accepted.includes(code)) {
    code = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  }
  return code;
};
const NEW_PASSWORD = 'a brand new passphrase';
const WRONG_PASSWORD = pterodactylError(400, 'InvalidPasswordProvidedException', 'The password provided was invalid for this account.');
const WRONG_2FA_PASSWORD = pterodactylError(400, 'BadRequestHttpException', 'The password provided was not valid.');
const ALREADY_ENABLED = pterodactylError(400, 'BadRequestHttpException', 'Two-factor authentication is already enabled on this account.');
const validation = (field: string, rule: string, detail: string) => ({ errors: [{ code: 'ValidationException', status: '422', detail, meta: { source_field: field, rule } }] });

interface Account {
  user: UserEntity;
  cookie: string;
  key: string;
  identifier: string;
}

describe.each(dbKinds(['postgres']))('Pterodactyl client API: e-mail, password, two-factor and activity (%s)', (db) => {
  let t: TestApp;

  const call = (method: 'get' | 'post' | 'put', path: string, key: string) =>
    t.http()[method](`/pterodactyl/api/client${path}`).set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${key}`);
  const hatchery = (method: 'get' | 'put' | 'patch', path: string, cookie: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const signInWith = (email: string, password: string, totp?: string) =>
    t.http().post('/api/auth/sign-in/email').send({ email, password, ...(totp === undefined ? {} : { totp }) });
  const now = (): number => t.clock.now().getTime();
  const twoFactorOn = async (a: Account): Promise<boolean> => (await hatchery('get', '/api/account', a.cookie).expect(200)).body.data.twoFactorEnabled;

  const account = async (): Promise<Account> => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const { key, identifier } = await createPterodactylKey(t, cookie, 'client');
    return { user, cookie, key, identifier };
  };

  beforeAll(async () => {
    t = await createTestApp({ db });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should change the e-mail address with the password (204), after which sign-in takes the new address', async () => {
    const a = await account();
    const other = await createUser(t.app);
    const wrong = await call('put', '/account/email', a.key).send({ email: 'stolen@example.test', password: 'not the password' }).expect(400);
    expect(wrong.body).toEqual(WRONG_PASSWORD);
    // Hatchery's rules: a valid, unused address (checked only once the password is right).
    expect((await call('put', '/account/email', a.key).send({ email: other.email, password: DEFAULT_PASSWORD }).expect(422)).body).toEqual(
      validation('email', 'unique', 'The email has already been taken.'),
    );
    expect((await call('put', '/account/email', a.key).send({ email: 'not an address', password: DEFAULT_PASSWORD }).expect(422)).body.errors[0].meta).toEqual({
      source_field: 'email',
      rule: 'email',
    });
    expect((await call('get', '/account', a.key).expect(200)).body.attributes.email).toBe(a.user.email);

    const moved = `moved-${randomBytes(3).toString('hex')}@example.test`;
    const res = await call('put', '/account/email', a.key).send({ email: ` ${moved.toUpperCase()} `, password: DEFAULT_PASSWORD }).expect(204);
    expect(res.text).toBe('');
    expect((await call('get', '/account', a.key).expect(200)).body.attributes.email).toBe(moved);
    await signInWith(moved, DEFAULT_PASSWORD).expect(200);
    await signInWith(a.user.email, DEFAULT_PASSWORD).expect(401);
  });

  it("should change the password with the current one and a confirmation (204), ending every session and keeping the account's keys", async () => {
    const a = await account();
    const body = { current_password: DEFAULT_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    expect((await call('put', '/account/password', a.key).send({ ...body, current_password: 'not the password' }).expect(400)).body).toEqual(WRONG_PASSWORD);
    expect((await call('put', '/account/password', a.key).send({ ...body, password_confirmation: 'something else' }).expect(422)).body).toEqual(
      validation('password', 'confirmed', 'The password confirmation does not match.'),
    );
    expect((await call('put', '/account/password', a.key).send({ ...body, password: 'short', password_confirmation: 'short' }).expect(422)).body).toEqual(
      validation('password', 'min', 'The password must be at least 8 characters.'),
    );
    // Nothing changed: the old password signs in, the session lives.
    await signInWith(a.user.email, DEFAULT_PASSWORD).expect(200);
    await hatchery('get', '/api/account', a.cookie).expect(200);

    const res = await call('put', '/account/password', a.key).send(body).expect(204);
    expect(res.text).toBe('');
    await signInWith(a.user.email, DEFAULT_PASSWORD).expect(401);
    await signInWith(a.user.email, NEW_PASSWORD).expect(200);
    // Every session that knew the old password is gone (a key has no session of its own to keep); the key stays.
    await hatchery('get', '/api/account', a.cookie).expect(401);
    await call('get', '/account', a.key).expect(200);
  });

  it('should set up two-factor with a secret, enable it with a current code and the password, and disable it with the password', async () => {
    const a = await account();
    // Nothing pending yet.
    expect((await call('post', '/account/two-factor', a.key).send({ code: '123456', password: DEFAULT_PASSWORD }).expect(400)).body.errors[0].code).toBe('BadRequestHttpException');

    const setup = await call('get', '/account/two-factor', a.key).expect(200);
    const { secret, image_url_data: url } = setup.body.data as { secret: string; image_url_data: string };
    expect(Object.keys(setup.body)).toEqual(['data']);
    expect(url).toBe(`otpauth://totp/Hatchery:${encodeURIComponent(a.user.email)}?issuer=Hatchery&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
    // Pending only: sign-in still needs no code.
    await signInWith(a.user.email, DEFAULT_PASSWORD).expect(200);

    expect((await call('post', '/account/two-factor', a.key).send({ code: codeAt(secret, now()), password: 'not the password' }).expect(400)).body).toEqual(WRONG_2FA_PASSWORD);
    expect((await call('post', '/account/two-factor', a.key).send({ code: refusedCode(secret, now()), password: DEFAULT_PASSWORD }).expect(400)).body).toEqual(
      pterodactylError(400, 'TwoFactorAuthenticationTokenInvalid', 'The provided two-factor authentication token was not valid.'),
    );
    expect((await call('post', '/account/two-factor', a.key).send({ code: '12 34', password: DEFAULT_PASSWORD }).expect(422)).body.errors[0].meta).toEqual({ source_field: 'code', rule: 'regex' });
    expect(await twoFactorOn(a)).toBe(false);

    const enabled = await call('post', '/account/two-factor', a.key).send({ code: codeAt(secret, now()), password: DEFAULT_PASSWORD }).expect(200);
    expect(enabled.body).toEqual({ object: 'recovery_tokens', attributes: { tokens: expect.any(Array) } });
    const tokens = enabled.body.attributes.tokens as string[];
    expect(tokens).toHaveLength(10);
    expect(new Set(tokens).size).toBe(10);
    expect(await twoFactorOn(a)).toBe(true);
    // Sign-in now takes a code: the password alone is not enough; the next step's code, or a recovery token, is.
    expect((await signInWith(a.user.email, DEFAULT_PASSWORD).expect(401)).body.code).toBe('TWO_FACTOR_REQUIRED');
    t.clock.advance(STEP_MS);
    await signInWith(a.user.email, DEFAULT_PASSWORD, codeAt(secret, now())).expect(200);
    await signInWith(a.user.email, DEFAULT_PASSWORD, tokens[0]).expect(200);
    expect((await call('get', '/account/two-factor', a.key).expect(400)).body).toEqual(ALREADY_ENABLED);
    t.clock.advance(STEP_MS);
    expect((await call('post', '/account/two-factor', a.key).send({ code: codeAt(secret, now()), password: DEFAULT_PASSWORD }).expect(400)).body).toEqual(ALREADY_ENABLED);

    expect((await call('post', '/account/two-factor/disable', a.key).send({ password: 'not the password' }).expect(400)).body).toEqual(WRONG_2FA_PASSWORD);
    expect((await call('post', '/account/two-factor/disable', a.key).send({}).expect(422)).body.errors[0].meta).toEqual({ source_field: 'password', rule: 'required' });
    expect(await twoFactorOn(a)).toBe(true);
    await call('post', '/account/two-factor/disable', a.key).send({ password: DEFAULT_PASSWORD }).expect(204);
    expect(await twoFactorOn(a)).toBe(false);
    await signInWith(a.user.email, DEFAULT_PASSWORD).expect(200);
    // Off already: Pterodactyl's 204 once the password is right, still 400 when it is not.
    await call('post', '/account/two-factor/disable', a.key).send({ password: DEFAULT_PASSWORD }).expect(204);
    await call('post', '/account/two-factor/disable', a.key).send({ password: 'not the password' }).expect(400);
  });

  it('should ask an account with two-factor on for a current code (or a recovery code) beside the password, as a fresh sign-in would have', async () => {
    const a = await account();
    const { secret } = (await call('get', '/account/two-factor', a.key).expect(200)).body.data;
    const tokens = (await call('post', '/account/two-factor', a.key).send({ code: codeAt(secret, now()), password: DEFAULT_PASSWORD }).expect(200)).body.attributes.tokens as string[];
    t.clock.advance(STEP_MS);
    const code = codeAt(secret, now());
    const body = { current_password: DEFAULT_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };

    expect((await call('put', '/account/password', a.key).send(body).expect(422)).body).toEqual(
      validation('code', 'required', 'The code field is required when two-factor authentication is enabled.'),
    );
    expect((await call('put', '/account/password', a.key).send({ ...body, code: refusedCode(secret, now()) }).expect(400)).body).toEqual(
      pterodactylError(400, 'TwoFactorAuthenticationTokenInvalid', 'The provided two-factor authentication token was not valid.'),
    );
    // The password is checked first: a wrong one spends no code.
    expect((await call('put', '/account/password', a.key).send({ ...body, current_password: 'not the password', code }).expect(400)).body).toEqual(WRONG_PASSWORD);
    await call('put', '/account/password', a.key).send({ ...body, code }).expect(204);
    t.clock.advance(STEP_MS);
    await signInWith(a.user.email, NEW_PASSWORD, codeAt(secret, now())).expect(200);

    // A code works once; a recovery code stands in for it, once.
    const moved = `moved-${randomBytes(3).toString('hex')}@example.test`;
    await call('put', '/account/email', a.key).send({ email: moved, password: NEW_PASSWORD, code }).expect(400);
    await call('put', '/account/email', a.key).send({ email: moved, password: NEW_PASSWORD }).expect(422);
    await call('put', '/account/email', a.key).send({ email: moved, password: NEW_PASSWORD, code: tokens[0] }).expect(204);
    await call('put', '/account/email', a.key).send({ email: `again-${moved}`, password: NEW_PASSWORD, code: tokens[0] }).expect(400);
    expect((await call('get', '/account', a.key).expect(200)).body.attributes.email).toBe(moved);
  });

  it("should list only the caller's own account events, in Pterodactyl's activity shape, with filter, sort, pages and include=actor", async () => {
    const a = await account();
    const b = await account();
    const admin = await createUser(t.app, { admin: true });
    const adminCookie = await signIn(t, admin.email);
    const moved = `activity-${randomBytes(3).toString('hex')}@example.test`;

    // The caller's own changes: through its key, then through Hatchery's session routes.
    await call('put', '/account/email', a.key).send({ email: moved, password: DEFAULT_PASSWORD }).expect(204);
    t.clock.advance(1_000);
    const { secret } = (await call('get', '/account/two-factor', a.key).expect(200)).body.data;
    await call('post', '/account/two-factor', a.key).send({ code: codeAt(secret, now()), password: DEFAULT_PASSWORD }).expect(200);
    t.clock.advance(1_000);
    await call('post', '/account/two-factor/disable', a.key).send({ password: DEFAULT_PASSWORD }).expect(204);
    t.clock.advance(1_000);
    const fresh = sessionCookie(await signInWith(moved, DEFAULT_PASSWORD).expect(200))!;
    await hatchery('put', '/api/account/password', fresh).send({ currentPassword: DEFAULT_PASSWORD, newPassword: NEW_PASSWORD }).expect(204);
    // Refused attempts change nothing and record nothing.
    await call('put', '/account/email', a.key).send({ email: 'x@example.test', password: 'not the password' }).expect(400);
    // Other users' events, one of them about this account.
    await call('put', '/account/password', b.key).send({ current_password: DEFAULT_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }).expect(204);
    await hatchery('patch', `/api/admin/users/${a.user.id}`, adminCookie).send({ name: 'Renamed by an admin' }).expect(200);

    const res = await call('get', '/account/activity', a.key).expect(200);
    const events = res.body.data as Json[];
    expect(events.map((e) => e.attributes.event)).toEqual(['user.password_changed', 'user.two_factor_disabled', 'user.two_factor_enabled', 'user.email_changed']);
    expect(res.body.meta.pagination).toEqual({ total: 4, count: 4, per_page: 25, current_page: 1, total_pages: 1, links: [] });
    expect(events[3]).toEqual({
      object: 'activity_log',
      attributes: {
        id: expect.stringMatching(/^[0-9a-f]{40}$/),
        batch: null,
        event: 'user.email_changed',
        is_api: true,
        ip: expect.any(String),
        description: null,
        properties: { before: { email: a.user.email }, after: { email: moved } },
        has_additional_metadata: true,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      },
    });
    // Through the session: not an API call, and nothing of the password in the entry.
    expect(events[0].attributes).toMatchObject({ is_api: false, properties: {}, has_additional_metadata: false });
    expect(JSON.stringify(res.body)).not.toMatch(new RegExp(`${NEW_PASSWORD}|${DEFAULT_PASSWORD}|${secret}|Renamed by an admin`));

    const filtered = await call('get', '/account/activity?filter[event]=TWO_FACTOR', a.key).expect(200);
    expect(filtered.body.data.map((e: Json) => e.attributes.event)).toEqual(['user.two_factor_disabled', 'user.two_factor_enabled']);
    // `%` and `_` in a filter are literal.
    expect((await call('get', '/account/activity?filter[event]=%25', a.key).expect(200)).body.data).toEqual([]);
    const oldest = await call('get', '/account/activity?sort=timestamp&per_page=1&page=2', a.key).expect(200);
    expect(oldest.body.data.map((e: Json) => e.attributes.event)).toEqual(['user.two_factor_enabled']);
    expect(oldest.body.meta.pagination).toMatchObject({ total: 4, count: 1, per_page: 1, current_page: 2, total_pages: 4 });
    expect(oldest.body.meta.pagination.links).toEqual({
      previous: 'http://panel.test/pterodactyl/api/client/account/activity?sort=timestamp&per_page=1&page=1',
      next: 'http://panel.test/pterodactyl/api/client/account/activity?sort=timestamp&per_page=1&page=3',
    });
    const withActor = await call('get', '/account/activity?include=actor&per_page=1', a.key).expect(200);
    expect(withActor.body.data[0].attributes.relationships).toEqual({
      actor: {
        object: 'user',
        attributes: { uuid: a.user.uuid, username: a.user.username, email: moved, image: expect.stringMatching(/^https:\/\/gravatar\.com\/avatar\/[0-9a-f]{32}$/), '2fa_enabled': false, created_at: expect.any(String) },
      },
    });
    expect((await call('get', '/account/activity?sort=ip', a.key).expect(400)).body).toEqual(
      pterodactylError(400, 'InvalidSortQuery', 'Requested sort(s) are not allowed. Allowed sort(s) are `timestamp`.'),
    );

    // The other user sees only their own entry; the administrator's change is on neither list.
    const theirs = (await call('get', '/account/activity', b.key).expect(200)).body.data as Json[];
    expect(theirs.map((e) => e.attributes.event)).toEqual(['user.password_changed']);

    // Hatchery's own route (Account → Activity) lists the same events, paged, with an exact event filter.
    const own = await hatchery('get', '/api/account/activity?perPage=2', fresh).expect(200);
    expect(own.body).toEqual({
      data: [
        { id: expect.stringMatching(/^\d+$/), event: 'user.password_changed', actor: { id: a.user.id, username: a.user.username }, metadata: {}, ip: expect.any(String), via: 'session', timestamp: expect.stringMatching(/Z$/) },
        expect.objectContaining({ event: 'user.two_factor_disabled' }),
      ],
      meta: { pagination: { total: 4, count: 2, perPage: 2, currentPage: 1, totalPages: 2 } },
    });
    const emails = (await hatchery('get', '/api/account/activity?event=user.email_changed', fresh).expect(200)).body.data as Json[];
    expect(emails).toEqual([expect.objectContaining({ event: 'user.email_changed', metadata: { before: { email: a.user.email }, after: { email: moved } } })]);
    expect(emails[0].via).not.toBe('session');
    // Substrings are for the Pterodactyl filter; here an event is a whole name.
    expect((await hatchery('get', '/api/account/activity?event=user.two_factor', fresh).expect(200)).body.data).toEqual([]);
    const bad = await hatchery('get', '/api/account/activity?event=TWO%20FACTOR', fresh).expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'event', message: 'event must be an event name such as user.password_changed' }] });
  });
});

/** A client address of its own, through a trusted proxy's X-Forwarded-For. */
const newIp = (): string => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

describe.each(dbKinds(['postgres']))('Pterodactyl client API: password guesses share the account rate limits (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db, env: { RATE_LIMIT_ENABLED: 'true', TRUSTED_PROXIES: 'loopback' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  const ptero = (method: 'get' | 'post' | 'put', path: string, key: string): ReturnType<ReturnType<TestApp['http']>['get']> =>
    t.http()[method](`/pterodactyl/api/client${path}`).set('X-Forwarded-For', newIp()).set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${key}`);
  const session = (path: string, cookie: string) => t.http().put(path).set('X-Forwarded-For', newIp()).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const signInFresh = async (email: string, password = DEFAULT_PASSWORD): Promise<string> =>
    sessionCookie(await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', newIp()).send({ email, password }).expect(200))!;
  const clientKey = async (cookie: string): Promise<string> =>
    (await t.http().post('/api/account/pterodactyl-keys').set('X-Forwarded-For', newIp()).set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ description: 'k' }).expect(201)).body.data.key;

  const signsIn = async (email: string, password: string): Promise<boolean> =>
    (await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', newIp()).send({ email, password })).status === 200;
  const twoFactorOn = async (cookie: string): Promise<boolean> =>
    (await t.http().get('/api/account').set('X-Forwarded-For', newIp()).set('Cookie', cookie).expect(200)).body.data.twoFactorEnabled;

  interface Rule {
    rule: string;
    /** Before the guesses (its requests may count; the window is let pass after it). */
    prepare?: (cookie: string) => Promise<void>;
    byKey: (key: string, password: string) => ReturnType<typeof ptero>;
    bySession: (cookie: string, password: string) => ReturnType<typeof ptero>;
    /** Whether the change the right password asks for was made. */
    changed: (user: UserEntity, cookie: string) => Promise<boolean>;
  }

  const moved = `moved-${randomBytes(3).toString('hex')}@example.test`;
  const RULES: Rule[] = [
    {
      rule: 'password',
      byKey: (k, password) => ptero('put', '/account/password', k).send({ current_password: password, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }),
      bySession: (c, password) => session('/api/account/password', c).send({ currentPassword: password, newPassword: NEW_PASSWORD }),
      changed: (user) => signsIn(user.email, NEW_PASSWORD),
    },
    {
      rule: 'e-mail',
      byKey: (k, password) => ptero('put', '/account/email', k).send({ email: moved, password }),
      bySession: (c, password) => session('/api/account/email', c).send({ email: moved, password }),
      changed: () => signsIn(moved, DEFAULT_PASSWORD),
    },
    {
      rule: 'two-factor',
      prepare: async (cookie) => {
        const post = (path: string) => t.http().post(path).set('X-Forwarded-For', newIp()).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
        const { secret } = (await post('/api/user/2fa/setup').expect(200)).body.data;
        await post('/api/user/2fa/enable').send({ code: codeAt(secret, t.clock.now().getTime()) }).expect(200);
      },
      byKey: (k, password) => ptero('post', '/account/two-factor/disable', k).send({ password }),
      bySession: (c, password) => t.http().post('/api/user/2fa/disable').set('X-Forwarded-For', newIp()).set('Cookie', c).set('Origin', TEST_ORIGIN).send({ password }),
      changed: async (_user, cookie) => !(await twoFactorOn(cookie)),
    },
  ];

  it.each(RULES.map((r) => [r.rule, r] as const))('%s: 8 guesses per 5 minutes per account, whichever keys and sessions make them', async (_rule, r) => {
    const user = await createUser(t.app);
    const cookie = await signInFresh(user.email);
    const keys = [await clientKey(cookie), await clientKey(cookie)];
    const bystander = await createUser(t.app);
    const bystanderKey = await clientKey(await signInFresh(bystander.email));
    if (r.prepare) {
      await r.prepare(cookie);
      t.clock.advance(5 * 60_000);
    }

    // Eight wrong guesses spread over two keys and the session, each from its own address.
    for (let i = 0; i < 8; i += 1) {
      const res: Response = i % 3 === 2 ? await r.bySession(cookie, `wrong guess ${i}`) : await r.byKey(keys[i % 3], `wrong guess ${i}`);
      expect([res.status, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual([400, '8', String(7 - i)]);
    }

    // The ninth, even with the right password and through a key new to the route, is refused in Pterodactyl's shape; so is the session.
    const limited = await r.byKey(await clientKey(cookie), DEFAULT_PASSWORD).expect(429);
    expect(limited.body).toEqual(pterodactylError(429, 'TooManyRequestsHttpException', 'Rate limit exceeded, try again later'));
    expect(limited.headers['retry-after']).toBe('300');
    expect((await r.bySession(cookie, DEFAULT_PASSWORD).expect(429)).body.code).toBe('RATE_LIMITED');
    expect(await r.changed(user, cookie)).toBe(false);
    // Another account is not held back.
    expect((await r.byKey(bystanderKey, 'wrong guess')).status).toBe(400);

    // Once the window has passed, the right password makes the change.
    t.clock.advance(5 * 60_000);
    await r.byKey(keys[0], DEFAULT_PASSWORD).expect(204);
    expect(await r.changed(user, cookie)).toBe(true);
  });
});
