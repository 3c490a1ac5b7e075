import { createHmac } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';
import { UsageSamplerJob } from 'src/modules/usage/usage-sampler.job';
import { MAX_ATTEMPTS } from 'src/modules/webhooks/webhook-delivery.job';
import { WebhookDeliveryJob } from 'src/modules/webhooks/webhook-delivery.job';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { MINUTE } from 'test/utils/fake-clock';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { addSimNode, SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';
import { WebhookReceiver } from 'test/utils/webhook-receiver';
import { ADMIN_REQUIRED, missingScope } from 'test/utils/nodes';
import { handlePowerAction, sendCommand } from 'test/wings-sim/power';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

/**
 * Webhooks (docs/webhooks.md) against a local receiver: signed bodies and their retries, Discord
 * embeds, a server's own webhooks and who may manage them, and the alerts the usage sampler raises
 * from what the Wings simulator does (crashes, a node going silent and coming back).
 */
(hasPaper ? describe : describe.skip).each(dbKinds(['postgres', 'pglite']))('webhooks (%s)', (db) => {
  let p: SimPanel;
  let rx: WebhookReceiver;
  let server: { id: string; uuid: string };

  const job = () => p.t.app.get(WebhookDeliveryJob);
  const sampler = () => p.t.app.get(UsageSamplerJob);
  const createHook = async (body: Record<string, unknown>) => (await p.admin('post', '/api/admin/webhooks').send(body).expect(201)).body.data;

  beforeAll(async () => {
    rx = new WebhookReceiver();
    await rx.start();
    p = await startSimPanel(db, { overrides: [{ provide: OutboundPolicy, useValue: new OutboundPolicy(true) }] });
    server = await p.createServer({ name: 'Hooked', backup_limit: 2 });
    await p.installed(server.id);
  });

  afterAll(async () => {
    await p?.close();
    await rx?.close();
  });

  describe('administrator webhooks', () => {
    it('should make a secret when none is given, show it once, and never list it', async () => {
      const hook = await createHook({ name: 'Ops', kind: 'http', url: rx.url('/once'), events: ['server.suspended'] });
      expect(hook).toMatchObject({ name: 'Ops', kind: 'http', url: rx.url('/once'), events: ['server.suspended'], enabled: true, hasSecret: true, serverId: null });
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const listed = (await p.admin('get', '/api/admin/webhooks').expect(200)).body;
      expect(listed.data.find((h: { id: string }) => h.id === hook.id)).not.toHaveProperty('secret');
      const viewed = (await p.admin('get', `/api/admin/webhooks/${hook.id}`).expect(200)).body.data;
      expect(viewed).not.toHaveProperty('secret');
      expect(JSON.stringify(viewed)).not.toContain(hook.secret);
      // A chosen secret is not echoed back; a rotated one is shown once.
      const chosen = (await p.admin('patch', `/api/admin/webhooks/${hook.id}`).send({ secret: 'x'.repeat(20) }).expect(200)).body.data;
      expect(chosen).not.toHaveProperty('secret');
      const rotated = (await p.admin('patch', `/api/admin/webhooks/${hook.id}`).send({ rotateSecret: true }).expect(200)).body.data;
      expect(rotated.secret).toMatch(/^whsec_/);
      await p.admin('delete', `/api/admin/webhooks/${hook.id}`).expect(204);
      await p.admin('get', `/api/admin/webhooks/${hook.id}`).expect(404);
    });

    it('should answer only administrators, and an admin key only within its webhook scopes', async () => {
      const hook = await createHook({ name: 'Scoped', kind: 'http', url: rx.url('/scoped'), events: ['*'] });
      const { as: user } = await p.newUser();
      expect((await user('get', '/api/admin/webhooks')).body).toEqual(ADMIN_REQUIRED);
      await p.t.http().get('/api/admin/webhooks').expect(401);
      const { user: admin } = await p.newUser({ admin: true });
      const cookie = await signIn(p.t, admin.email);
      const withKey = async (permissions: string[]) => {
        const key = await createApiKey(p.t, cookie, { permissions });
        return (method: 'get' | 'post' | 'patch', path: string) => p.t.http()[method](path).set('Authorization', `Bearer ${key}`);
      };
      const reader = await withKey(['webhooks.read']);
      await reader('get', '/api/admin/webhooks').expect(200);
      await reader('get', `/api/admin/webhooks/${hook.id}/deliveries`).expect(200);
      expect((await reader('patch', `/api/admin/webhooks/${hook.id}`).send({ name: 'x' })).body).toEqual(missingScope('webhooks.write'));
      expect((await reader('post', `/api/admin/webhooks/${hook.id}/test`)).body).toEqual(missingScope('webhooks.write'));
      const other = await withKey(['servers.read', 'servers.write']);
      expect((await other('get', '/api/admin/webhooks')).body).toEqual(missingScope('webhooks.read'));
      const writer = await withKey(['webhooks.read', 'webhooks.write']);
      await writer('patch', `/api/admin/webhooks/${hook.id}`).send({ enabled: false }).expect(200);
      expect((await p.admin('get', `/api/admin/webhooks/${hook.id}`).expect(200)).body.data.enabled).toBe(false);
      await p.admin('delete', `/api/admin/webhooks/${hook.id}`).expect(204);
    });

    it('should refuse bad bodies with the field at fault, and keep nothing', async () => {
      const before = (await p.admin('get', '/api/admin/webhooks').expect(200)).body.meta.pagination.total;
      const cases: [Record<string, unknown>, string][] = [
        [{ name: 'x', kind: 'slack', url: rx.url('/x'), events: ['*'] }, 'VALIDATION_FAILED'],
        [{ name: 'x', kind: 'http', url: rx.url('/x'), events: ['server.exploded'] }, 'VALIDATION_FAILED'],
        [{ name: 'x', kind: 'http', url: rx.url('/x'), events: [] }, 'VALIDATION_FAILED'],
        [{ name: 'x', kind: 'http', url: 'ftp://example.com/x', events: ['*'] }, 'OUTBOUND_URL_REFUSED'],
        [{ name: 'x', kind: 'http', url: 'http://user:pw@example.com/x', events: ['*'] }, 'OUTBOUND_URL_REFUSED'],
        [{ name: 'x', kind: 'http', url: rx.url('/x'), events: ['*'], secret: 'short' }, 'VALIDATION_FAILED'],
        [{ name: 'x', kind: 'discord', url: rx.url('/x'), events: ['*'], secret: 'y'.repeat(20) }, 'VALIDATION_FAILED'],
        // Short enough as sent, too long once its host is in punycode.
        [{ name: 'x', kind: 'http', url: `http://${'ü'.repeat(40)}.example/${'a'.repeat(1990)}`, events: ['*'] }, 'VALIDATION_FAILED'],
        [{ name: 'x', kind: 'http', url: rx.url('/x'), events: null }, 'VALIDATION_FAILED'],
        [{ name: '', kind: 'http', url: rx.url('/x'), events: ['*'] }, 'VALIDATION_FAILED'],
      ];
      for (const [body, code] of cases) {
        const res = await p.admin('post', '/api/admin/webhooks').send(body);
        expect([body, res.status, res.body.code]).toEqual([body, 400, code]);
      }
      expect((await p.admin('get', '/api/admin/webhooks').expect(200)).body.meta.pagination.total).toBe(before);
      await p.admin('get', '/api/admin/webhooks/abc').expect(404);
      // An update is checked as a create is, field by field; its kind stays.
      const hook = await createHook({ name: 'Checked', kind: 'http', url: rx.url('/checked'), events: ['*'] });
      for (const body of [{ events: null }, { name: '' }, { secret: 'short' }, { url: 'ftp://example.com/x' }, { kind: 'discord' }, { rotateSecret: 'yes' }]) {
        const res = await p.admin('patch', `/api/admin/webhooks/${hook.id}`).send(body);
        expect([body, res.status]).toEqual([body, 400]);
      }
      expect((await p.admin('get', `/api/admin/webhooks/${hook.id}`).expect(200)).body.data).toMatchObject({ name: 'Checked', kind: 'http', events: ['*'] });
      await p.admin('delete', `/api/admin/webhooks/${hook.id}`).expect(204);
    });

    it('should sign each body, retry a failing receiver with backoff, and log every attempt', async () => {
      const hook = await createHook({ name: 'Signed', kind: 'http', url: rx.url('/signed'), events: ['server.suspended', 'server.unsuspended'] });
      rx.failFirst('/signed', 2);
      await p.admin('post', `/api/admin/servers/${server.id}/suspend`).expect(200);
      await job().drain();
      p.t.clock.advance(9_000);
      await job().drain(); // not due yet: the first retry waits 10 s
      expect(rx.at('/signed')).toHaveLength(1);
      p.t.clock.advance(2_000);
      await job().drain();
      p.t.clock.advance(31_000);
      await job().drain();
      const got = rx.at('/signed');
      expect(got.map((r) => r.status)).toEqual([500, 500, 200]);
      // The same delivery each time, each signed with its own timestamp.
      expect(new Set(got.map((r) => r.headers['x-hatchery-delivery'])).size).toBe(1);
      for (const r of got) {
        const timestamp = String(r.headers['x-hatchery-timestamp']);
        expect(r.headers['x-hatchery-signature']).toBe(`sha256=${createHmac('sha256', hook.secret).update(`${timestamp}.${r.body}`).digest('hex')}`);
        expect(r.headers['x-hatchery-event']).toBe('server.suspended');
        expect(r.headers['content-type']).toBe('application/json');
      }
      expect(got[2].json).toEqual({
        id: got[2].headers['x-hatchery-delivery'],
        event: 'server.suspended',
        timestamp: expect.any(String),
        server: { id: server.id, uuid: server.uuid, name: 'Hooked', nodeId: p.nodeId },
        node: { id: p.nodeId, name: 'sim' },
        data: {},
      });
      const deliveries = (await p.admin('get', `/api/admin/webhooks/${hook.id}/deliveries`).expect(200)).body.data;
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ event: 'server.suspended', status: 'delivered', test: false, nextAttemptAt: null });
      expect(deliveries[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
      expect(deliveries[0].attempts[0].error).toBe('receiver is failing on purpose');
      // Suspending again changes nothing, and tells nobody.
      await p.admin('post', `/api/admin/servers/${server.id}/suspend`).expect(200);
      await p.admin('post', `/api/admin/servers/${server.id}/unsuspend`).expect(200);
      await job().drain();
      expect(rx.eventsAt('/signed')).toEqual(['server.suspended', 'server.unsuspended']);
    });

    it('should give a delivery up after the last retry, about an hour on', async () => {
      const hook = await createHook({ name: 'Down', kind: 'http', url: rx.url('/down'), events: ['user.created'] });
      rx.failFirst('/down', Infinity);
      await createUser(p.t.app);
      await p.admin('post', '/api/admin/users').send({ username: 'hooked', email: 'hooked@example.test', password: 'a long enough password 1' }).expect(201);
      let waited = 0;
      for (let i = 0; i < 20; i++) {
        await job().drain();
        p.t.clock.advance(10 * MINUTE);
        waited += 10;
      }
      const [delivery] = (await p.admin('get', `/api/admin/webhooks/${hook.id}/deliveries`).expect(200)).body.data;
      expect(delivery).toMatchObject({ event: 'user.created', status: 'failed', nextAttemptAt: null });
      expect(delivery.attempts).toHaveLength(MAX_ATTEMPTS);
      const span = Date.parse(delivery.attempts.at(-1).at) - Date.parse(delivery.attempts[0].at);
      expect(span).toBeGreaterThan(60 * MINUTE);
      expect(span).toBeLessThan(waited * MINUTE);
      expect(delivery.payload).toMatchObject({ event: 'user.created', data: { username: 'hooked', email: 'hooked@example.test', admin: false } });
    });

    it('should send Discord an embed, and hide the token of its URL', async () => {
      const hook = await createHook({ name: 'Discord', kind: 'discord', url: rx.url('/api/webhooks/123/s3cr3t-token'), events: ['server.unsuspended'] });
      expect(hook).toMatchObject({ url: rx.url('/api/webhooks/123/…'), hasSecret: false });
      expect(hook).not.toHaveProperty('secret');
      await p.admin('post', `/api/admin/servers/${server.id}/suspend`).expect(200);
      await p.admin('post', `/api/admin/servers/${server.id}/unsuspend`).expect(200);
      await job().drain();
      const [got] = rx.at('/api/webhooks/123/s3cr3t-token');
      expect(got.headers['x-hatchery-signature']).toBeUndefined();
      expect(got.json).toEqual({
        username: 'Hatchery',
        embeds: [
          {
            title: 'Server unsuspended',
            color: expect.any(Number),
            timestamp: expect.any(String),
            fields: [
              { name: 'Server', value: `Hooked (${server.uuid.slice(0, 8)})`, inline: true },
              { name: 'Node', value: 'sim', inline: true },
            ],
            footer: { text: 'server.unsuspended' },
          },
        ],
      });
      // The audit log names the webhook without the token either.
      const audit = (await p.admin('get', '/api/admin/audit-logs?action=webhook.created').expect(200)).body;
      expect(JSON.stringify(audit)).not.toContain('s3cr3t-token');
    });
  });

  describe("a server's own webhooks", () => {
    const base = () => `/api/client/servers/${server.uuid}/webhooks`;

    it('should let the owner add one for the server events only, send a test at once, and keep others out', async () => {
      for (const events of [['node.down'], ['user.created'], ['server.deleted'], ['server.created', 'server.crashed']]) {
        const refused = await p.asOwner('post', base()).send({ name: 'Mine', kind: 'http', url: rx.url('/mine'), events }).expect(400);
        expect(refused.body).toMatchObject({ code: 'WEBHOOK_EVENT_NOT_ALLOWED', details: [{ field: 'events' }] });
      }
      const hook = (await p.asOwner('post', base()).send({ name: 'Mine', kind: 'http', url: rx.url('/mine'), events: ['*'] }).expect(201)).body.data;
      expect(hook).toMatchObject({ serverId: server.id, events: ['*'] });

      const test = (await p.asOwner('post', `${base()}/${hook.id}/test`).expect(200)).body.data;
      expect(test).toMatchObject({ event: 'webhook.test', status: 'delivered', test: true, attempts: [{ statusCode: 200, error: null }] });
      expect(rx.at('/mine')[0].json).toMatchObject({ event: 'webhook.test', server: { uuid: server.uuid } });

      // An administrator's webhook is not the server's, and the server's is not the admin list's.
      const admins = (await p.admin('get', '/api/admin/webhooks').expect(200)).body.data as { id: string }[];
      expect(admins.map((h) => h.id)).not.toContain(hook.id);
      await p.asOwner('get', `${base()}/${admins[0].id}`).expect(404);
      await p.admin('get', `/api/admin/webhooks/${hook.id}`).expect(404);

      const { user, as: subuser } = await p.newUser();
      await p.asOwner('post', `/api/client/servers/${server.uuid}/users`).send({ email: user.email, permissions: ['server.view'] }).expect(201);
      expect((await subuser('get', base())).status).toBe(403);
      await p.asOwner('post', `/api/client/servers/${server.uuid}/users/${user.id}`).send({ permissions: ['server.view', 'server.webhook'] }).expect(200);
      expect((await subuser('get', base()).expect(200)).body.data.map((h: { id: string }) => h.id)).toEqual([hook.id]);
      const { as: stranger } = await p.newUser();
      await stranger('get', base()).expect(404);

      // The server's webhook hears its server's events, and the activity log says who changed it.
      await p.admin('post', `/api/admin/servers/${server.id}/suspend`).expect(200);
      await p.admin('post', `/api/admin/servers/${server.id}/unsuspend`).expect(200);
      await job().drain();
      expect(rx.eventsAt('/mine')).toEqual(['webhook.test', 'server.suspended', 'server.unsuspended']);
      const activity = (await p.asOwner('get', `/api/client/servers/${server.uuid}/activity`).expect(200)).body.data as { event: string }[];
      expect(activity.map((a) => a.event)).toContain('server.webhook.create');
    });
  });

  describe('alerts', () => {
    it('should send one server.crashed per 10 minutes and one server.crash_loop for three crashes', async () => {
      await createHook({ name: 'Crashes', kind: 'http', url: rx.url('/crashes'), events: ['server.crashed', 'server.crash_loop'] });
      await p.asOwner('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'start' }).expect(200);
      await waitFor(() => p.sim.servers.get(server.uuid)?.state === 'running');
      const pass = async () => {
        const outcome = await sampler().sample();
        p.t.clock.advance(MINUTE);
        return outcome;
      };
      await pass();
      let crashes = 0;
      for (let i = 0; i < 3; i++) {
        p.sim.crash(server.uuid);
        // Wings restarts a crashed server, unless it crashed less than 60 s before: start it then.
        await waitFor(() => ['running', 'offline'].includes(p.sim.servers.get(server.uuid)?.state ?? ''));
        if (p.sim.servers.get(server.uuid)?.state === 'offline') {
          await pass();
          await p.asOwner('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'start' }).expect(200);
          await waitFor(() => p.sim.servers.get(server.uuid)?.state === 'running');
        }
        crashes += (await pass())!.crashes;
        crashes += (await pass())!.crashes;
      }
      expect(crashes).toBe(3);
      await job().drain();
      // Delivered side by side: in either order.
      expect(rx.eventsAt('/crashes').sort()).toEqual(['server.crash_loop', 'server.crashed']);
      expect(rx.at('/crashes').find((r) => r.json.event === 'server.crash_loop')!.json).toMatchObject({ server: { uuid: server.uuid }, data: { crashesInLast10Minutes: 3 } });
      expect(rx.at('/crashes').find((r) => r.json.event === 'server.crashed')!.json).toMatchObject({ data: { crashesInLast10Minutes: 1 } });

      // A stop someone asked for is no crash.
      await p.asOwner('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'stop' }).expect(200);
      await waitFor(() => p.sim.servers.get(server.uuid)?.state === 'offline');
      expect((await pass())!.crashes + (await pass())!.crashes).toBe(0);
    });

    it('should take no stop for a crash: one on the console socket or the stop command typed, as Wings reports them', async () => {
      const [{ token_identifier: tokenId }] = await p.t.app.get(DataSource).query<{ token_identifier: string }[]>('SELECT token_identifier FROM node WHERE id = $1', [p.nodeId]);
      const wings = (events: { event: string; metadata: Record<string, unknown> }[]) =>
        p.t
          .http()
          .post('/api/remote/activity')
          .set('Authorization', `Bearer ${tokenId}.${p.sim.token()}`)
          .send({ data: events.map((e) => ({ user: null, server: server.uuid, ip: '203.0.113.9', timestamp: p.t.clock.now().toISOString(), ...e })) })
          .expect(204);
      const sim = () => p.sim.servers.get(server.uuid)!;
      const pass = async () => {
        const outcome = await sampler().sample();
        p.t.clock.advance(MINUTE);
        return outcome!.crashes;
      };
      for (const stop of ['socket', 'command'] as const) {
        if (sim().state !== 'running') {
          await p.asOwner('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'start' }).expect(200);
          await waitFor(() => sim().state === 'running');
        }
        await pass();
        if (stop === 'socket') {
          await handlePowerAction(sim(), 'stop');
          await wings([{ event: 'server:power.stop', metadata: {} }]);
        } else {
          sendCommand(sim(), 'stop');
          await wings([{ event: 'server:console.command', metadata: { command: 'stop' } }]);
        }
        await waitFor(() => sim().state === 'offline');
        expect([stop, (await pass()) + (await pass()) + (await pass())]).toEqual([stop, 0]);
      }
    });

    it('should send node.disk_high once when the servers fill 90 % of the node, and again only after it fell under 85 %', async () => {
      await createHook({ name: 'Disk', kind: 'http', url: rx.url('/disk'), events: ['node.disk_high'] });
      const root = p.sim.servers.get(server.uuid)!.fs.root;
      await mkdir(root, { recursive: true });
      const used = async () => (await p.sim.servers.get(server.uuid)!.utilization()).disk_bytes;
      const fill = async (name: string, bytes: number) => writeFile(join(root, name), Buffer.alloc(bytes));
      const pass = async () => {
        await sampler().sample();
        p.t.clock.advance(11 * MINUTE); // past the 10-minute alert window each time
      };
      // A 10 MiB node: at 95 % full, then 96 %, then down to 50 %, then 95 % again.
      await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ disk: 10 }).expect(200);
      const MIB = 1024 * 1024;
      await fill('big.bin', Math.round(9.5 * MIB) - (await used()));
      await pass();
      await fill('more.bin', Math.round(0.1 * MIB));
      await pass();
      await job().drain();
      expect(rx.eventsAt('/disk')).toEqual(['node.disk_high']);
      expect(rx.at('/disk')[0].json).toMatchObject({ node: { id: p.nodeId }, data: { diskBytes: 10 * MIB, percent: expect.any(Number) } });
      await rm(join(root, 'big.bin'));
      await pass();
      await fill('big.bin', Math.round(9.5 * MIB) - (await used()));
      await pass();
      await job().drain();
      expect(rx.eventsAt('/disk')).toEqual(['node.disk_high', 'node.disk_high']);
      await rm(join(root, 'big.bin'));
      await rm(join(root, 'more.bin'));
      await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ disk: 100000 }).expect(200);
    });

    it('should tell a server\'s webhook that its backup completed', async () => {
      const hook = (
        await p
          .asOwner('post', `/api/client/servers/${server.uuid}/webhooks`)
          .send({ name: 'Backups', kind: 'http', url: rx.url('/backups'), events: ['backup.completed', 'backup.failed'] })
          .expect(201)
      ).body.data;
      const backup = (await p.asOwner('post', `/api/client/servers/${server.uuid}/backups`).send({ name: 'Nightly' }).expect(201)).body.data;
      await waitFor(async () => (await p.asOwner('get', `/api/client/servers/${server.uuid}/backups/${backup.id}`).expect(200)).body.data.status === 'successful');
      await job().drain();
      expect(rx.eventsAt('/backups')).toEqual(['backup.completed']);
      expect(rx.at('/backups')[0].json).toMatchObject({ server: { uuid: server.uuid }, data: { name: 'Nightly', bytes: expect.any(Number) } });
      await p.asOwner('delete', `/api/client/servers/${server.uuid}/webhooks/${hook.id}`).expect(204);
    });

    it('should alert when a scheduled backup cannot even start, since nobody sees its error', async () => {
      await createHook({ name: 'Scheduled', kind: 'http', url: rx.url('/scheduled'), events: ['backup.failed'] });
      // Backups are off for this server (a limit of 0): the schedule's task is refused.
      const other = await p.createServer({ name: 'No backups' });
      await p.installed(other.id);
      const base = `/api/client/servers/${other.uuid}/schedules`;
      const cron = { minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*' };
      const schedule = (await p.asOwner('post', base).send({ name: 'Nightly', cron }).expect(201)).body.data;
      await p.asOwner('post', `${base}/${schedule.id}/tasks`).send({ action: 'backup', payload: 'nightly' }).expect(201);
      await p.asOwner('post', `${base}/${schedule.id}/run`).expect(202);
      await p.t.app.get(ScheduleRunner).whenIdle();
      await job().drain();
      expect(rx.at('/scheduled').map((r) => r.json)).toEqual([
        expect.objectContaining({ event: 'backup.failed', server: expect.objectContaining({ uuid: other.uuid }), data: expect.objectContaining({ name: 'nightly', scheduled: true, error: expect.any(String) }) }),
      ]);
    });

    it('should send node.down after two silent minutes, once, then node.up when it answers', async () => {
      await createHook({ name: 'Nodes', kind: 'http', url: rx.url('/nodes'), events: ['node.down', 'node.up'] });
      const other = await addSimNode(p, 'flaky', '25600-25601');
      const pass = async () => {
        await sampler().sample();
        p.t.clock.advance(MINUTE);
      };
      await pass();
      await other.sim.stop();
      for (let i = 0; i < 5; i++) {
        await pass();
      }
      await job().drain();
      expect(rx.eventsAt('/nodes')).toEqual(['node.down']);
      expect(rx.at('/nodes')[0].json).toMatchObject({ event: 'node.down', server: null, node: { id: other.nodeId, name: 'flaky' } });
      await other.sim.start();
      await pass();
      await pass();
      await job().drain();
      expect(rx.eventsAt('/nodes')).toEqual(['node.down', 'node.up']);
      expect(rx.at('/nodes')[1].json).toMatchObject({ event: 'node.up', data: { downForSeconds: expect.any(Number) } });
      await other.sim.stop();
    });
  });
});

/** Without OUTBOUND_ALLOW_PRIVATE, as in production: a webhook cannot point into the panel's network. */
describe.each(dbKinds(['pglite']))('webhook addresses (%s)', (db) => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp({ db });
    cookie = await signIn(t, (await createUser(t.app, { admin: true })).email);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should refuse loopback, private, link-local and internal names, on create and update', async () => {
    const as = (method: 'post' | 'patch', path: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
    for (const url of ['http://127.0.0.1:8080/x', 'http://10.0.0.5/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://metadata.google.internal/x', 'http://localhost/x']) {
      const res = await as('post', '/api/admin/webhooks').send({ name: 'x', kind: 'http', url, events: ['*'] });
      expect([url, res.status, res.body.code]).toEqual([url, 400, 'OUTBOUND_URL_REFUSED']);
    }
    const res = await as('post', '/api/admin/webhooks').send({ name: 'x', kind: 'http', url: 'http://93.184.215.14/x', events: ['*'] }).expect(201);
    const patched = await as('patch', `/api/admin/webhooks/${res.body.data.id}`).send({ url: 'http://192.168.1.1/x' });
    expect([patched.status, patched.body.code]).toEqual([400, 'OUTBOUND_URL_REFUSED']);
  });
});
