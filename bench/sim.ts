/**
 * The Wings SIMULATOR as its own process for `npm run bench` (bench/run.ts forks it), so the
 * panel, the simulator and the load generator each have their own event loop.
 *
 * It loads its servers from the panel the way Wings boots (`page=0`, then pages
 * 2..last_page in parallel), gives each a small Minecraft-like directory so file listings and
 * disk usage have something to read, and tells the parent over IPC when it is ready.
 * Settings come in the environment: PANEL_URL, TOKEN_ID, TOKEN, PORT.
 */
import 'test/setup/register-paths';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePanelConfiguration } from 'test/wings-sim/config';
import { WingsSimulator } from 'test/wings-sim/simulator';

const PER_PAGE = 50;

/** What a fresh Paper server holds after its first start, at toy sizes. */
const FILES: Record<string, number> = {
  'banned-ips.json': 2,
  'banned-players.json': 2,
  'bukkit.yml': 1_100,
  'commands.yml': 600,
  'eula.txt': 180,
  'help.yml': 2_500,
  'ops.json': 2,
  'paper.jar': 48 * 1024,
  'permissions.yml': 0,
  'server.properties': 1_400,
  'spigot.yml': 4_000,
  'usercache.json': 120,
  'version_history.json': 60,
  'whitelist.json': 2,
  'logs/latest.log': 9_000,
  'plugins/.paper-remapped/index.json': 40,
  'world/level.dat': 1_600,
  'world_nether/level.dat': 1_600,
  'world_the_end/level.dat': 1_600,
  'config/paper-global.yml': 7_000,
};

const need = (name: string): string => {
  const v = process.env[name];
  if (!v) {
    throw new Error(`bench/sim.ts: ${name} is not set`);
  }
  return v;
};

const populate = async (root: string): Promise<void> => {
  for (const [file, size] of Object.entries(FILES)) {
    const abs = join(root, file);
    await mkdir(join(abs, '..'), { recursive: true });
    await writeFile(abs, file.endsWith('.jar') ? Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(size)]) : 'x'.repeat(size));
  }
};

const main = async (): Promise<void> => {
  const sim = new WingsSimulator({
    panelUrl: need('PANEL_URL'),
    tokenId: need('TOKEN_ID'),
    token: need('TOKEN'),
    port: Number(need('PORT')),
    host: '127.0.0.1',
    remoteTimeoutMs: 30_000,
  });
  const { url } = await sim.start();

  // The simulator keeps every request for tests to inspect; a benchmark would grow it without end.
  const trim = setInterval(() => {
    sim.requests.length = 0;
    sim.panel.calls.length = 0;
  }, 1000);
  trim.unref();

  const started = process.hrtime.bigint();
  const first = await sim.panel.getServers(0, PER_PAGE);
  const rest = await Promise.all(Array.from({ length: Math.max(0, first.lastPage - 1) }, (_, i) => sim.panel.getServers(i + 2, PER_PAGE)));
  const bootMs = Number(process.hrtime.bigint() - started) / 1e6;
  const items = [first, ...rest].flatMap((p) => p.data) as { uuid: string }[];
  for (const item of items) {
    const server = await sim.createServer(item.uuid, parsePanelConfiguration(item));
    await populate(server.fs.root);
  }

  process.send?.({ type: 'ready', url, servers: sim.servers.size, pages: first.lastPage, bootMs });
  const stop = (): void => {
    clearInterval(trim);
    sim.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
};

main().catch((err: unknown) => {
  process.stderr.write(`bench simulator failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
