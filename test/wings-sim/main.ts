// `npm run wings-sim`: runs the Wings SIMULATOR by hand for local demos.
// Settings from flags or environment: --panel-url/PANEL_URL, --token-id/TOKEN_ID, --token/TOKEN, --port/PORT,
// --host/HOST (default 127.0.0.1), --data-dir/DATA_DIR (default: a temp dir removed on exit).
import { WingsSimulator } from 'test/wings-sim/simulator';

function flag(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) {
    return undefined;
  }
  const arg = args[i];
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[i + 1];
}

function setting(name: string, env: string, fallback?: string): string {
  const v = flag(name) ?? process.env[env] ?? fallback;
  if (v === undefined || v === '') {
    console.error(`wings-sim: missing --${name} (or ${env})`);
    process.exit(2);
  }
  return v;
}

async function main(): Promise<void> {
  const sim = new WingsSimulator({
    panelUrl: setting('panel-url', 'PANEL_URL', 'http://127.0.0.1:3000'),
    tokenId: setting('token-id', 'TOKEN_ID'),
    token: setting('token', 'TOKEN'),
    port: Number(setting('port', 'PORT', '8080')),
    host: setting('host', 'HOST', '127.0.0.1'),
    dataDir: flag('data-dir') ?? process.env.DATA_DIR,
    logRequests: true,
  });
  const { url } = await sim.start();
  const banner = [
    '================================================================',
    '  Hatchery WINGS SIMULATOR — not Pterodactyl Wings, no Docker.',
    '  For local demos and tests only; game servers are simulated.',
    `  Listening on ${url}`,
    `  Panel (remote): ${sim.configuration.panelUrl}`,
    '================================================================',
  ];
  console.log(banner.join('\n'));
  const shutdown = (): void => {
    sim.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  console.error('wings-sim failed to start:', err);
  process.exit(1);
});
