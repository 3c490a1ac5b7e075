// System, server, power and console routes (docs/wings.md#daemon-calls).
import * as os from 'node:os';
import { ConfigurationDecodeError } from 'test/wings-sim/config';
import { SimContext } from 'test/wings-sim/context';
import {
  GENERIC_ERROR,
  HttpError,
  RouteTable,
  internalError,
  optionalBool,
  optionalString,
  stringArray,
} from 'test/wings-sim/http-kit';
import { afterCreate, installAfterSync, reinstall } from 'test/wings-sim/install';
import { WINGS_VERSION } from 'test/wings-sim/panel-client';
import { handlePowerAction, sendCommand, terminate, waitForStop } from 'test/wings-sim/power';
import { POWER_ACTIONS, PowerAction } from 'test/wings-sim/types';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function goArch(): string {
  const map: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };
  return map[process.arch] ?? process.arch;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isPowerAction(v: string): v is PowerAction {
  return (POWER_ACTIONS as readonly string[]).includes(v);
}

export function registerServerRoutes(t: RouteTable, sim: SimContext): void {
  t.add('POST', '/api/update', 'token', async (c) => {
    const body = await c.bindJson();
    c.json(200, { applied: sim.applyConfigUpdate(body) });
  });

  t.add('GET', '/api/system', 'token', (c) => {
    const servers = [...sim.servers.values()];
    const running = servers.filter((s) => s.containerRunning).length;
    if (c.url.searchParams.get('v') === '2') {
      c.json(200, {
        version: WINGS_VERSION,
        docker: {
          version: '24.0.7-sim',
          cgroups: { driver: 'systemd', version: '2' },
          containers: { total: servers.length, running, paused: 0, stopped: servers.length - running },
          storage: { driver: 'overlay2', filesystem: 'extfs' },
          runc: { version: '1.1.12-sim' },
        },
        system: {
          architecture: goArch(),
          cpu_threads: os.cpus().length,
          memory_bytes: os.totalmem(),
          kernel_version: os.release(),
          os: 'Hatchery Wings SIMULATOR',
          os_type: process.platform,
        },
      });
      return;
    }
    c.json(200, {
      architecture: goArch(),
      cpu_count: os.cpus().length,
      kernel_version: os.release(),
      os: process.platform,
      version: WINGS_VERSION,
    });
  });

  t.add('GET', '/api/servers', 'token', async (c) => {
    c.json(200, await Promise.all([...sim.servers.values()].map((s) => s.toApiResponse())));
  });

  t.add('POST', '/api/servers', 'token', async (c) => {
    const body = await c.bindJson();
    const uuid = optionalString(body, 'uuid');
    const startOnCompletion = optionalBool(body, 'start_on_completion');
    if (!UUID_V4.test(uuid)) {
      throw new HttpError(422, 'The data provided in the request could not be validated.');
    }
    // Synchronous toward the panel: 202 only after GET /api/remote/servers/{uuid} succeeded.
    let server;
    try {
      server = await sim.createServer(uuid, await sim.panel.getServerConfiguration(uuid));
    } catch (err) {
      sim.log(`create ${uuid}: ${err instanceof ConfigurationDecodeError ? 'bad configuration: ' : ''}${errText(err)}`);
      throw internalError();
    }
    c.empty(202);
    afterCreate(server, startOnCompletion, sim.installOptions).catch((err: unknown) => sim.log(`install: ${errText(err)}`));
  });

  t.add('GET', '/api/servers/:server', 'server', async (c) => {
    c.json(200, await c.sim.toApiResponse());
  });

  t.add('DELETE', '/api/servers/:server', 'server', (c) => {
    const s = c.sim;
    s.config.suspended = true;
    if (s.transferring) {
      s.publish('transfer status', 'completed');
    }
    s.publish('deleted', 'null');
    // Cancel the server context (sockets get 1001 "server deleted"), then destroy the container.
    s.destroyed = true;
    s.bus.emit('destroy');
    terminate(s);
    sim.removeServer(s);
    c.empty(204);
  });

  t.add('GET', '/api/servers/:server/logs', 'server', (c) => {
    let size = Number.parseInt(c.url.searchParams.get('size') ?? '100', 10);
    if (!Number.isFinite(size) || size <= 0 || size > 100) {
      size = 100;
    }
    c.json(200, { data: c.sim.logs.slice(-size) });
  });

  t.add('POST', '/api/servers/:server/power', 'server', async (c) => {
    const s = c.sim;
    const body = await c.bindJson();
    const action = optionalString(body, 'action');
    const rawWait = body.wait_seconds;
    if (rawWait !== undefined && rawWait !== null && (typeof rawWait !== 'number' || !Number.isInteger(rawWait))) {
      throw new HttpError(400, GENERIC_ERROR, true);
    }
    let wait = typeof rawWait === 'number' ? rawWait : 0;
    if (!isPowerAction(action)) {
      throw new HttpError(422, 'The power action provided was not valid, should be one of "stop", "start", "restart", "kill"');
    }
    if ((action === 'start' || action === 'restart') && s.suspended) {
      throw new HttpError(400, 'Cannot start or restart a server that is suspended.');
    }
    if (wait < 0 || wait > 300) {
      wait = 30;
    }
    c.empty(202);
    // Errors of the background action (already running, installing, lock busy) are never reported over HTTP.
    handlePowerAction(s, action, wait).catch((err: unknown) => sim.log(`power ${action} on ${s.uuid}: ${errText(err)}`));
  });

  t.add('POST', '/api/servers/:server/commands', 'server', async (c) => {
    const s = c.sim;
    if (!s.containerRunning) {
      throw new HttpError(502, 'Cannot send commands to a stopped server instance.');
    }
    const body = await c.bindJson();
    for (const command of stringArray(body, 'commands')) {
      try {
        sendCommand(s, command);
      } catch (err) {
        sim.log(`failed to send command to ${s.uuid}: ${errText(err)}`);
      }
    }
    c.empty(204);
  });

  t.add('POST', '/api/servers/:server/sync', 'server', async (c) => {
    const s = c.sim;
    try {
      await s.sync();
    } catch (err) {
      sim.log(`sync ${s.uuid}: ${errText(err)}`);
      throw internalError();
    }
    if (s.suspended && s.state !== 'offline') {
      waitForStop(s, 60_000).catch((err: unknown) => sim.log(`stop after suspension: ${errText(err)}`));
    }
    c.empty(204);
  });

  t.add('POST', '/api/servers/:server/install', 'server', (c) => {
    c.empty(202);
    installAfterSync(c.sim, sim.installOptions).catch((err: unknown) => sim.log(`install: ${errText(err)}`));
  });

  t.add('POST', '/api/servers/:server/reinstall', 'server', (c) => {
    if (c.sim.lock.locked) {
      throw new HttpError(409, 'Cannot execute server reinstall event while another power action is running.');
    }
    c.empty(202);
    reinstall(c.sim, sim.installOptions).catch((err: unknown) => sim.log(`reinstall: ${errText(err)}`));
  });

  t.add('POST', '/api/servers/:server/ws/deny', 'server', async (c) => {
    const body = await c.bindJson();
    for (const jti of stringArray(body, 'jtis')) {
      sim.wsPolicy.deny(jti);
    }
    c.empty(204);
  });
}
