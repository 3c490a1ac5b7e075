/**
 * Many Wings nodes in one process, for the fleet bench's boot storm (bench/fleet.ts, f04): one Wings
 * simulator (test/wings-sim) per node, each on a port of its own with the node's own token, as the
 * panel reaches and is reached by real nodes.
 *
 * Over IPC from its parent (bench/lib/children.ts, NodeSimulators):
 * - `{ type: 'start', nodes: [{ id, tokenId, token }] }`: starts one simulator per node (no servers
 *   yet) and answers `{ type: 'listening', ports: { [id]: port } }`;
 * - `{ type: 'boot' }`: every node boots at once, as each Wings does when it starts (WingsSimulator.boot:
 *   its server list, page 0 then the other pages together, each configuration decoded as strictly as
 *   Wings decodes it, its servers made, then `POST /api/remote/servers/reset`), and it answers
 *   `{ type: 'booted', ... }` with how many configurations the nodes received, when the last node had
 *   all of its own, and the nodes that failed (after Wings' retries of 5xx and network errors, ~30 s).
 * Settings come in the environment: PANEL_URL.
 */
import 'test/setup/register-paths';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WingsSimulator } from 'test/wings-sim/simulator';
import { errorMessage } from 'src/common/errors/error-message';

export interface NodeCredentials {
  id: string;
  tokenId: string;
  token: string;
}

export type NodesRequest = { type: 'start'; nodes: NodeCredentials[] } | { type: 'boot' };

export type NodesAnswer =
  | { type: 'listening'; ports: Record<string, number> }
  | {
      type: 'booted';
      nodes: number;
      configurations: number;
      /** From the first request until the last node had booted (its servers made, its reset answered). */
      seconds: number;
      /** Nodes whose boot failed, with the reason (Wings would exit). */
      failed: { id: string; error: string }[];
    }
  | { type: 'error'; error: string };

const panelUrl = process.env.PANEL_URL;
if (!panelUrl) {
  throw new Error('bench/nodes.ts: PANEL_URL is not set');
}

const sims = new Map<string, WingsSimulator>();
let root = '';

const answer = (message: NodesAnswer): void => {
  process.send?.(message);
};

const start = async (nodes: NodeCredentials[]): Promise<void> => {
  root = await mkdtemp(join(tmpdir(), 'bench-nodes-'));
  const ports: Record<string, number> = {};
  for (const node of nodes) {
    // As config.yml gives Wings: remote_query.timeout 30 s; 5xx and network errors retried for about 30 s.
    const sim = new WingsSimulator({
      panelUrl: panelUrl,
      tokenId: node.tokenId,
      token: node.token,
      port: 0,
      host: '127.0.0.1',
      dataDir: join(root, node.id),
      remoteTimeoutMs: 30_000,
      remoteRetryBudgetMs: 30_000,
    });
    ports[node.id] = (await sim.start()).port;
    sims.set(node.id, sim);
  }
  answer({ type: 'listening', ports });
};

const boot = async (): Promise<void> => {
  const started = performance.now();
  const failed: { id: string; error: string }[] = [];
  const counts = await Promise.all(
    [...sims].map(async ([id, sim]) => {
      try {
        return (await sim.boot()).length;
      } catch (e) {
        failed.push({ id, error: errorMessage(e) });
        return 0;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  answer({ type: 'booted', nodes: sims.size, configurations: counts.reduce((a, b) => a + b, 0), seconds, failed });
};

// The simulators keep every request for tests to inspect; here that would only grow.
const trim = setInterval(() => {
  for (const sim of sims.values()) {
    sim.requests.length = 0;
    sim.panel.calls.length = 0;
  }
}, 1000);
trim.unref();

process.on('message', (message: NodesRequest) => {
  const work = message.type === 'start' ? start(message.nodes) : boot();
  work.catch((e: unknown) => answer({ type: 'error', error: e instanceof Error ? (e.stack ?? e.message) : String(e) }));
});

const stop = (): void => {
  clearInterval(trim);
  Promise.all([...sims.values()].map((sim) => sim.stop()))
    .then(() => (root ? rm(root, { recursive: true, force: true }) : undefined))
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
