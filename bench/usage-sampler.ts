import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { expectApi } from 'bench/lib/http';
import { cpuMs, PanelProcess, panelEnv } from 'bench/lib/panel-process';
import { backendPids, databaseUrl, dropDatabase, recreateDatabase } from 'bench/lib/pg-admin';
import type { Row } from 'bench/lib/report';
import { ADMIN_EMAIL, newKey, PASSWORD, signIn } from 'bench/lib/seed';
import { freePort } from 'test/utils/free-port';

const NODES = 100;
const SERVERS_PER_NODE = 100;
const INTERVAL_S = 10;
const PASSES = 3;

const round = (v: number, d = 2): number => Number(v.toFixed(d));

/**
 * A Wings stand-in for 100 nodes at once: every node is a loopback address of its own (127.0.0.2 to
 * 127.0.0.101, one port), and `GET /api/servers` answers that node's 100 running servers as Wings lists
 * them. Only the sampler's call is answered; the bench times each pass by its first and last call.
 */
const fakeFleet = async (port: number): Promise<{ server: Server; calls: number[] }> => {
  const calls: number[] = [];
  const uuids = new Map<string, string[]>();
  let counter = 0;
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/api/servers') {
      res.writeHead(404).end();
      return;
    }
    calls.push(performance.now());
    const host = req.socket.localAddress ?? '';
    if (!uuids.has(host)) {
      uuids.set(host, Array.from({ length: SERVERS_PER_NODE }, () => randomUUID()));
    }
    counter += 1;
    const body = uuids.get(host)!.map((uuid, i) => ({
      state: 'running',
      is_suspended: false,
      utilization: {
        memory_bytes: (512 + i) * 1024 * 1024,
        memory_limit_bytes: 2048 * 1024 * 1024,
        cpu_absolute: (i % 50) + 0.5,
        network: { rx_bytes: counter * 1000 + i, tx_bytes: counter * 500 + i },
        uptime: 3_600_000,
        state: 'running',
        disk_bytes: (1024 + i) * 1024 * 1024,
      },
      configuration: { uuid },
    }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(port, '0.0.0.0', resolve));
  return { server, calls };
};

/**
 * Row 9 (#31): the usage sampler's cost with 100 nodes and 10,000 running servers. A panel of its own
 * (PostgreSQL, production settings) samples every 10 s; after its first pass, the CPU of the panel and
 * of its PostgreSQL backends over three passes is divided by the passes and the nodes: the cost of one
 * node's minute (the sampler's default interval is a minute, one pass a minute).
 */
export const samplerRows = async (common: Record<string, string>, workDir: string, log: (m: string) => void): Promise<Row[]> => {
  const db = `${process.env.BENCH_DB_NAME ?? 'hatchery_bench'}_sampler`;
  await recreateDatabase(db);
  const wingsPort = await freePort();
  const fleet = await fakeFleet(wingsPort);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const panel = new PanelProcess({
    port,
    logFile: join(workDir, 'sampler.log'),
    env: panelEnv({
      ...common,
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: url,
      DATABASE_URL: databaseUrl(db),
      DATA_DIR: workDir,
      ADMIN_EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      ADMIN_USERNAME: 'admin',
      USAGE_SAMPLE_INTERVAL_SECONDS: String(INTERVAL_S),
    }),
  }).start();
  try {
    await panel.waitHealthy();
    const cookie = await signIn(url, ADMIN_EMAIL);
    const key = await newKey(url, cookie, 'sampler bench', ['nodes.read', 'nodes.write', 'locations.write']);
    const location = (await expectApi(201, url, 'POST', '/api/admin/locations', { bearer: key }, { short: 'fleet', long: 'Sampler fleet' })).body.data.id as string;
    for (let n = 0; n < NODES; n++) {
      await expectApi(201, url, 'POST', '/api/admin/nodes', { bearer: key }, {
        name: `fleet-${n + 1}`,
        fqdn: `127.0.0.${n + 2}`,
        scheme: 'http',
        daemonListen: wingsPort,
        memory: 262_144,
        disk: 2_000_000,
        locationId: location,
      });
    }
    // The first pass that finds every node, then three more, measured.
    const passStart = async (): Promise<number> => {
      const from = Math.ceil(fleet.calls.length / NODES) * NODES;
      const deadline = Date.now() + (INTERVAL_S + 30) * 1000;
      while (fleet.calls.length < from + NODES) {
        if (Date.now() > deadline) {
          throw new Error(`the sampler made ${fleet.calls.length - from} of ${NODES} calls of a pass in time`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      return from;
    };
    await passStart();
    const pgBefore = new Map((await backendPids(db)).map((pid) => [pid, cpuMs(pid)]));
    const panelBefore = cpuMs(panel.pid) ?? 0;
    const walls: number[] = [];
    for (let i = 0; i < PASSES; i++) {
      const from = await passStart();
      walls.push(fleet.calls[from + NODES - 1] - fleet.calls[from]);
    }
    // The last pass's writes: a moment after its last call.
    await new Promise((r) => setTimeout(r, 2000));
    const panelMs = (cpuMs(panel.pid) ?? 0) - panelBefore;
    const pgMs = [...pgBefore].reduce((sum, [pid, before]) => {
      const after = cpuMs(pid);
      return before === null || after === null ? sum : sum + Math.max(0, after - before);
    }, 0);
    // Idle between passes is in the window too; over 3 passes of 10 s it is the panel's own ticking, small.
    const panelPerNode = round(panelMs / PASSES / NODES, 3);
    const pgPerNode = round(pgMs / PASSES / NODES, 3);
    const wall = walls.sort((a, b) => a - b)[Math.floor(walls.length / 2)];
    log(`s9-sampler: ${NODES} nodes, ${NODES * SERVERS_PER_NODE} servers: pass ${round(wall, 0)} ms, panel ${panelPerNode} ms and PostgreSQL ${pgPerNode} ms of CPU per node per pass`);
    return [
      {
        id: 's9-sampler',
        scenario: `9. usage sampler: a pass over ${NODES} nodes / ${NODES * SERVERS_PER_NODE} servers (median of ${PASSES})`,
        p50Ms: round(wall, 1),
        p99Ms: round(Math.max(...walls), 1),
        panelCpuMsPerReq: panelPerNode,
        extra: {
          perNodePerMinute: { panelCpuMs: panelPerNode, postgresCpuMs: pgPerNode },
          perPass: { panelCpuMs: round(panelMs / PASSES, 1), postgresCpuMs: round(pgMs / PASSES, 1), wallMs: walls.map((w) => round(w, 1)) },
          note: 'panel CPU ms/req is per node per pass: one pass a minute at the default interval',
        },
      },
    ];
  } finally {
    await panel.stop();
    await new Promise<void>((resolve) => fleet.server.close(() => resolve()));
    await dropDatabase(db).catch(() => undefined);
  }
};
