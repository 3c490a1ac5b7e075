import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { AppModule } from 'src/app.module';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';
import { SERVER_PERMISSION_METADATA } from 'src/modules/servers/server-access';
import type { ServerPermission } from 'src/modules/servers/server-permissions';
import { testHostBody } from 'test/utils/mariadb';
import { listRoutes, RouteInfo } from 'test/utils/routes';
import { Requester, SimPanel, waitFor } from 'test/utils/sim-panel';

/**
 * For every client route on `{server}`, the request a caller allowed to make it makes, and the
 * status it gets: the permission matrix calls them as every kind of caller, and the embedded
 * database tour once as the owner. A server with state for all of them comes from
 * `prepareClientRoutes`.
 */

const SERVER_ROOT = '/api/client/servers/:server';

export interface Ctx {
  p: SimPanel;
  serverId: string;
  base: string;
  root: string;
  /** A fresh number for names that must not repeat between calls. */
  n: () => number;
  pullUrl: string;
  archive: string;
  targetId: string;
  databaseId: string;
  scheduleId: string;
  /** A successful backup, for the routes that read, download, lock or restore one. */
  backupId: string;
  /** The server's webhook, pointing at the local HTTP server (which answers 200 to anything). */
  webhookId: string;
}

interface Row {
  status: number;
  /** What the request needs beyond the route's permission (a task needs the permission of its action). */
  also?: ServerPermission[];
  /** The request a caller holding the permission makes; it may prepare state first. */
  send: (c: Ctx, as: Requester) => PromiseLike<Response>;
}

const NIGHTLY = { minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*' };

const newSchedule = async (c: Ctx): Promise<string> =>
  (await c.p.asOwner('post', `${c.base}/schedules`).send({ name: `Fresh ${c.n()}`, cron: NIGHTLY }).expect(201)).body.data.id as string;

/** Waits out an install, reinstall or backup restore (the simulator takes milliseconds). */
const installed = (c: Ctx) => c.p.installed(c.serverId);

/**
 * Commands need a running server; a reinstall row may have stopped it. The simulator's own state is
 * the truth here: the panel shares a server's state for LIVE_STATE_MS of its (hand-moved) clock, so
 * polling it could keep answering "starting".
 */
const running = async (c: Ctx) => {
  const uuid = c.base.slice(c.base.lastIndexOf('/') + 1);
  if (c.p.sim.servers.get(uuid)?.state !== 'running') {
    await c.p.asOwner('post', `${c.base}/power`).send({ action: 'start' }).expect(200);
    await waitFor(() => c.p.sim.servers.get(uuid)?.state === 'running');
  }
};

/** A backup the daemon has finished and reported as successful. */
const completedBackup = async (c: Ctx): Promise<string> => {
  const id = (await c.p.asOwner('post', `${c.base}/backups`).send({ name: `matrix ${c.n()}` }).expect(201)).body.data.id as string;
  await waitFor(async () => (await c.p.asOwner('get', `${c.base}/backups/${id}`).expect(200)).body.data.status === 'successful');
  return id;
};

/** The id of the server's primary allocation. */
const primaryAllocation = async (c: Ctx): Promise<string> =>
  ((await c.p.asOwner('get', `${c.base}/network/allocations`).expect(200)).body.data as { id: string; isDefault: boolean }[]).find((a) => a.isDefault)!.id;

const fileAt = async (c: Ctx, name: string): Promise<string> => {
  await writeFile(join(c.root, name), `contents of ${name}`);
  return name;
};

export const ROWS: Record<string, Row> = {
  'GET /api/client/servers/:server': { status: 200, send: (c, as) => as('get', c.base) },
  'GET /api/client/servers/:server/resources': { status: 200, send: (c, as) => as('get', `${c.base}/resources`) },
  'GET /api/client/servers/:server/resources/history': { status: 200, send: (c, as) => as('get', `${c.base}/resources/history?range=24h`) },
  'POST /api/client/servers/:server/power': { status: 200, send: (c, as) => as('post', `${c.base}/power`).send({ action: 'start' }) },
  'POST /api/client/servers/:server/command': {
    status: 204,
    send: async (c, as) => {
      await running(c);
      return as('post', `${c.base}/command`).send({ command: 'list' });
    },
  },
  'GET /api/client/servers/:server/websocket': { status: 200, send: (c, as) => as('get', `${c.base}/websocket`) },
  'GET /api/client/servers/:server/activity': { status: 200, send: (c, as) => as('get', `${c.base}/activity`) },
  'GET /api/client/servers/:server/mounts': { status: 200, send: (c, as) => as('get', `${c.base}/mounts`) },

  'GET /api/client/servers/:server/startup': { status: 200, send: (c, as) => as('get', `${c.base}/startup`) },
  'PUT /api/client/servers/:server/startup/variable': {
    status: 200,
    send: (c, as) => as('put', `${c.base}/startup/variable`).send({ key: 'BUILD_NUMBER', value: String(c.n()) }),
  },
  'PUT /api/client/servers/:server/settings/docker-image': {
    status: 204,
    send: async (c, as) => {
      // Another of the egg's images than the current one, read as the owner whoever asks.
      const startup = (await c.p.asOwner('get', `${c.base}/startup`).expect(200)).body.data as { dockerImage: string; dockerImages: { image: string }[] };
      const other = startup.dockerImages.map((d) => d.image).find((i) => i !== startup.dockerImage)!;
      return as('put', `${c.base}/settings/docker-image`).send({ dockerImage: other });
    },
  },
  'POST /api/client/servers/:server/settings/rename': {
    status: 204,
    send: (c, as) => as('post', `${c.base}/settings/rename`).send({ name: `Matrix ${c.n()}` }),
  },
  'POST /api/client/servers/:server/settings/reinstall': {
    status: 202,
    send: async (c, as) => {
      const res = await as('post', `${c.base}/settings/reinstall`);
      await installed(c);
      return res;
    },
  },
  'GET /api/client/servers/:server/network/allocations': { status: 200, send: (c, as) => as('get', `${c.base}/network/allocations`) },
  'POST /api/client/servers/:server/network/allocations': {
    status: 201,
    send: async (c, as) => {
      const res = await as('post', `${c.base}/network/allocations`);
      if (res.status === 201) {
        // Given back at once, so the limit never runs out however often the row is sent.
        await c.p.asOwner('delete', `${c.base}/network/allocations/${(res.body as { data: { id: string } }).data.id}`).expect(204);
      }
      return res;
    },
  },
  'DELETE /api/client/servers/:server/network/allocations/:allocation': {
    status: 204,
    send: async (c, as) => {
      const path = `${c.base}/network/allocations/${((await c.p.asOwner('post', `${c.base}/network/allocations`).expect(201)).body as { data: { id: string } }).data.id}`;
      const res = await as('delete', path);
      if (res.status !== 204) {
        // A caller that was refused leaves it: the owner gives it back, so the limit never runs out.
        await c.p.asOwner('delete', path).expect(204);
      }
      return res;
    },
  },
  'POST /api/client/servers/:server/network/allocations/:allocation': {
    status: 200,
    send: async (c, as) => as('post', `${c.base}/network/allocations/${await primaryAllocation(c)}`).send({ notes: `Matrix ${c.n()}` }),
  },
  'POST /api/client/servers/:server/network/allocations/:allocation/primary': {
    status: 200,
    send: async (c, as) => as('post', `${c.base}/network/allocations/${await primaryAllocation(c)}/primary`),
  },

  'GET /api/client/servers/:server/databases': { status: 200, send: (c, as) => as('get', `${c.base}/databases`) },
  'POST /api/client/servers/:server/databases': {
    status: 201,
    send: (c, as) => as('post', `${c.base}/databases`).send({ name: `m${c.n()}`, remote: '%' }),
  },
  'POST /api/client/servers/:server/databases/:database/rotate-password': {
    status: 200,
    send: (c, as) => as('post', `${c.base}/databases/${c.databaseId}/rotate-password`),
  },
  'DELETE /api/client/servers/:server/databases/:database': {
    status: 204,
    send: async (c, as) => {
      const created = await c.p.asOwner('post', `${c.base}/databases`).send({ name: `gone${c.n()}`, remote: '%' }).expect(201);
      return as('delete', `${c.base}/databases/${created.body.data.id}`);
    },
  },

  'GET /api/client/servers/:server/schedules': { status: 200, send: (c, as) => as('get', `${c.base}/schedules`) },
  'POST /api/client/servers/:server/schedules': {
    status: 201,
    send: (c, as) => as('post', `${c.base}/schedules`).send({ name: `Matrix ${c.n()}`, cron: NIGHTLY }),
  },
  'GET /api/client/servers/:server/schedules/:schedule': { status: 200, send: (c, as) => as('get', `${c.base}/schedules/${c.scheduleId}`) },
  'POST /api/client/servers/:server/schedules/:schedule': {
    status: 200,
    send: (c, as) => as('post', `${c.base}/schedules/${c.scheduleId}`).send({ name: `Renamed ${c.n()}` }),
  },
  'POST /api/client/servers/:server/schedules/:schedule/run': {
    status: 202,
    also: ['server.console'],
    send: async (c, as) => {
      const res = await as('post', `${c.base}/schedules/${c.scheduleId}/run`);
      await c.p.t.app.get(ScheduleRunner).whenIdle();
      return res;
    },
  },
  'DELETE /api/client/servers/:server/schedules/:schedule': {
    status: 204,
    send: async (c, as) => as('delete', `${c.base}/schedules/${await newSchedule(c)}`),
  },
  'POST /api/client/servers/:server/schedules/:schedule/tasks': {
    status: 201,
    also: ['server.console'],
    send: async (c, as) => as('post', `${c.base}/schedules/${await newSchedule(c)}/tasks`).send({ action: 'command', payload: 'say hi' }),
  },
  'DELETE /api/client/servers/:server/schedules/:schedule/tasks/:task': {
    status: 204,
    send: async (c, as) => {
      const task = await c.p.asOwner('post', `${c.base}/schedules/${c.scheduleId}/tasks`).send({ action: 'command', payload: 'say bye' }).expect(201);
      return as('delete', `${c.base}/schedules/${c.scheduleId}/tasks/${task.body.data.id}`);
    },
  },

  'GET /api/client/servers/:server/users': { status: 200, send: (c, as) => as('get', `${c.base}/users`) },
  'POST /api/client/servers/:server/users': {
    status: 201,
    send: async (c, as) => as('post', `${c.base}/users`).send({ email: (await c.p.newUser()).user.email, permissions: [] }),
  },
  'GET /api/client/servers/:server/users/:user': { status: 200, send: (c, as) => as('get', `${c.base}/users/${c.targetId}`) },
  'POST /api/client/servers/:server/users/:user': {
    status: 200,
    send: (c, as) => as('post', `${c.base}/users/${c.targetId}`).send({ permissions: [] }),
  },
  'DELETE /api/client/servers/:server/users/:user': {
    status: 204,
    send: async (c, as) => {
      const { user } = await c.p.newUser();
      await c.p.asOwner('post', `${c.base}/users`).send({ email: user.email, permissions: [] }).expect(201);
      return as('delete', `${c.base}/users/${user.id}`);
    },
  },

  'GET /api/client/servers/:server/backups': { status: 200, send: (c, as) => as('get', `${c.base}/backups`) },
  'POST /api/client/servers/:server/backups': { status: 201, send: (c, as) => as('post', `${c.base}/backups`).send({ name: `made ${c.n()}` }) },
  'GET /api/client/servers/:server/backups/:backup': { status: 200, send: (c, as) => as('get', `${c.base}/backups/${c.backupId}`) },
  'GET /api/client/servers/:server/backups/:backup/download': { status: 200, send: (c, as) => as('get', `${c.base}/backups/${c.backupId}/download`) },
  'POST /api/client/servers/:server/backups/:backup/lock': { status: 200, send: (c, as) => as('post', `${c.base}/backups/${c.backupId}/lock`) },
  'POST /api/client/servers/:server/backups/:backup/restore': {
    status: 202,
    send: async (c, as) => {
      const res = await as('post', `${c.base}/backups/${c.backupId}/restore`).send({});
      // The server shows restoring_backup until the daemon reports back.
      await installed(c);
      return res;
    },
  },
  'DELETE /api/client/servers/:server/backups/:backup': {
    status: 204,
    send: async (c, as) => as('delete', `${c.base}/backups/${await completedBackup(c)}`),
  },

  'GET /api/client/servers/:server/files/list': { status: 200, send: (c, as) => as('get', `${c.base}/files/list?directory=/`) },
  'GET /api/client/servers/:server/files/contents': {
    status: 200,
    send: async (c, as) => as('get', `${c.base}/files/contents?file=${await fileAt(c, 'read.txt')}`),
  },
  'GET /api/client/servers/:server/files/download': { status: 200, send: (c, as) => as('get', `${c.base}/files/download?file=read.txt`) },
  'GET /api/client/servers/:server/files/upload': { status: 200, send: (c, as) => as('get', `${c.base}/files/upload`) },
  'POST /api/client/servers/:server/files/upload': {
    status: 204,
    send: (c, as) => as('post', `${c.base}/files/upload?directory=/`).attach('files', Buffer.from('uploaded'), `up-${c.n()}.txt`),
  },
  'POST /api/client/servers/:server/files/write': {
    status: 204,
    send: (c, as) => as('post', `${c.base}/files/write`).send({ file: `/written-${c.n()}.txt`, content: 'x' }),
  },
  'POST /api/client/servers/:server/files/copy': {
    status: 200,
    send: async (c, as) => as('post', `${c.base}/files/copy`).send({ location: `/${await fileAt(c, `copy-${c.n()}.jar`)}` }),
  },
  'PUT /api/client/servers/:server/files/rename': {
    status: 204,
    send: async (c, as) => {
      const from = await fileAt(c, `from-${c.n()}.txt`);
      return as('put', `${c.base}/files/rename`).send({ root: '/', files: [{ from, to: `to-${from}` }] });
    },
  },
  'POST /api/client/servers/:server/files/delete': {
    status: 204,
    send: async (c, as) => as('post', `${c.base}/files/delete`).send({ root: '/', files: [await fileAt(c, `gone-${c.n()}.txt`)] }),
  },
  'POST /api/client/servers/:server/files/create-folder': {
    status: 204,
    send: (c, as) => as('post', `${c.base}/files/create-folder`).send({ root: '/', name: `folder-${c.n()}` }),
  },
  'POST /api/client/servers/:server/files/chmod': {
    status: 204,
    send: (c, as) => as('post', `${c.base}/files/chmod`).send({ root: '/', files: [{ file: 'read.txt', mode: '640' }] }),
  },
  'POST /api/client/servers/:server/files/compress': {
    status: 200,
    send: (c, as) => as('post', `${c.base}/files/compress`).send({ root: '/', files: ['read.txt'] }),
  },
  'POST /api/client/servers/:server/files/decompress': {
    status: 204,
    send: (c, as) => as('post', `${c.base}/files/decompress`).send({ root: '/', file: c.archive }),
  },
  'GET /api/client/servers/:server/webhooks': { status: 200, send: (c, as) => as('get', `${c.base}/webhooks`) },
  'POST /api/client/servers/:server/webhooks': {
    status: 201,
    send: (c, as) => as('post', `${c.base}/webhooks`).send({ name: `Hook ${c.n()}`, kind: 'http', url: `${c.pullUrl}/hook`, events: ['server.crashed'] }),
  },
  'GET /api/client/servers/:server/webhooks/:id': { status: 200, send: (c, as) => as('get', `${c.base}/webhooks/${c.webhookId}`) },
  'PATCH /api/client/servers/:server/webhooks/:id': {
    status: 200,
    send: (c, as) => as('patch', `${c.base}/webhooks/${c.webhookId}`).send({ name: `Renamed ${c.n()}` }),
  },
  'DELETE /api/client/servers/:server/webhooks/:id': {
    status: 204,
    send: async (c, as) => {
      const created = await c.p.asOwner('post', `${c.base}/webhooks`).send({ name: `Gone ${c.n()}`, kind: 'http', url: `${c.pullUrl}/hook`, events: ['*'] }).expect(201);
      return as('delete', `${c.base}/webhooks/${created.body.data.id}`);
    },
  },
  'GET /api/client/servers/:server/webhooks/:id/deliveries': { status: 200, send: (c, as) => as('get', `${c.base}/webhooks/${c.webhookId}/deliveries`) },
  'POST /api/client/servers/:server/webhooks/:id/test': { status: 200, send: (c, as) => as('post', `${c.base}/webhooks/${c.webhookId}/test`) },
  'POST /api/client/servers/:server/files/pull': {
    status: 202,
    send: (c, as) => as('post', `${c.base}/files/pull`).send({ url: `${c.pullUrl}/pulled-${c.n()}.txt`, directory: '/pulls' }),
  },
};

export const serverRoutes = (): (RouteInfo & { permission: ServerPermission | undefined })[] =>
  listRoutes(AppModule)
    .filter((r) => r.path === SERVER_ROOT || r.path.startsWith(`${SERVER_ROOT}/`))
    .map((r) => ({ ...r, permission: Reflect.getMetadata(SERVER_PERMISSION_METADATA, r.handler) as ServerPermission | undefined }));

/**
 * On a panel with a real database host: a Paper server with a file, an archive, a subuser, a
 * database, a schedule with a task and a finished backup, and a local HTTP server to pull files
 * from. `close` stops that HTTP server.
 */
export const prepareClientRoutes = async (p: SimPanel): Promise<{ c: Ctx; close: () => Promise<void> }> => {
  const files: Server = createServer((req, res) => {
    const body = Buffer.from(`pulled ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  await p.admin('post', '/api/admin/database-hosts').send(testHostBody()).expect(201);
  const server = await p.createServer({ name: 'Matrix', backup_limit: 1000, allocation_limit: 3 });
  const base = `/api/client/servers/${server.uuid}`;
  await p.installed(server.id);
  const root = p.sim.servers.get(server.uuid)!.fs.root;
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'read.txt'), 'hello');
  const archive = (await p.asOwner('post', `${base}/files/compress`).send({ root: '/', files: ['read.txt'] }).expect(200)).body.data.name as string;
  const target = await p.newUser();
  const targetId = (await p.asOwner('post', `${base}/users`).send({ email: target.user.email, permissions: [] }).expect(201)).body.data.id as string;
  const databaseId = (await p.asOwner('post', `${base}/databases`).send({ name: 'rotated', remote: '%' }).expect(201)).body.data.id as string;
  const scheduleId = (await p.asOwner('post', `${base}/schedules`).send({ name: 'Matrix', cron: NIGHTLY }).expect(201)).body.data.id as string;
  await p.asOwner('post', `${base}/schedules/${scheduleId}/tasks`).send({ action: 'command', payload: 'list' }).expect(201);
  let counter = 0;
  const c: Ctx = {
    p,
    serverId: server.id,
    base,
    root,
    n: () => ++counter,
    pullUrl: `http://127.0.0.1:${(files.address() as AddressInfo).port}`,
    archive,
    targetId,
    databaseId,
    scheduleId,
    backupId: '',
    webhookId: '',
  };
  c.backupId = await completedBackup(c);
  c.webhookId = (await p.asOwner('post', `${base}/webhooks`).send({ name: 'Matrix', kind: 'http', url: `${c.pullUrl}/hook`, events: ['*'] }).expect(201)).body.data.id as string;
  return { c, close: () => new Promise<void>((resolve) => files.close(() => resolve())) };
};
