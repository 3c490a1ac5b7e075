// Install flow: create, install and reinstall.
import { handlePowerAction, waitForStop } from 'test/wings-sim/power';
import { SimServer } from 'test/wings-sim/sim-server';

export interface InstallOptions {
  /** Fault switch: make the simulated install script fail. */
  shouldFail: () => boolean;
  log: (message: string) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** CreateEnvironment: the container is created and its image pulled (console + install output). */
async function createEnvironment(s: SimServer): Promise<void> {
  s.publishDaemon('Pulling Docker container image, this could take a few minutes to complete...');
  const image = s.config.container.image;
  if (!image.startsWith('~')) {
    s.publish('install output', `Pulling from ${image || 'unknown'} latest`);
    await sleep(s.deps.timing.lineDelayMs);
    s.publish('install output', 'Digest: sha256:0000000000000000000000000000000000000000000000000000000000000000 ');
    s.publish('install output', `Status: Image is up to date for ${image} `);
  }
  s.publishDaemon('Finished pulling Docker container image');
}

/** The installer container: `GET /install`, install lock, output, completion message. */
async function runInstaller(s: SimServer, opts: InstallOptions): Promise<void> {
  const script = await s.deps.panel.getInstallationScript(s.uuid);
  if (s.installing) {
    throw new Error('install: cannot obtain installation lock');
  }
  s.installing = true;
  try {
    s.publish('install output', `Pulling from ${script.container_image || 'unknown'} latest`);
    s.publishDaemon('Pulling Docker container image, this could take a few minutes to complete...');
    s.publishDaemon('Finished pulling Docker container image');
    s.publish('daemon message', 'Starting installation process, this could take a few minutes...');
    const lines = script.script.replace(/\r\n/g, '\n').split('\n').filter((l) => l.trim() !== '');
    s.publish('install output', `[simulator] ${script.entrypoint || 'sh'} /mnt/install/install.sh (${lines.length} script lines)`);
    await sleep(s.deps.timing.installDurationMs);
    if (s.destroyed) {
      throw new Error('install: server deleted');
    }
    if (opts.shouldFail()) {
      s.publish('install output', '[simulator] install script exited with code 1');
      throw new Error('install: installation process exited with a non-zero exit code');
    }
    s.publish('install output', '[simulator] install script exited with code 0');
    s.publish('daemon message', 'Installation process completed.');
  } finally {
    s.installing = false;
  }
}

/** Server.install(reinstall): always reports to the panel, then offline + `install completed`. */
async function install(s: SimServer, reinstall: boolean, opts: InstallOptions): Promise<boolean> {
  let error: unknown = null;
  if (!s.config.skip_egg_scripts) {
    s.publish('install started', '');
    try {
      await runInstaller(s, opts);
    } catch (err) {
      error = err;
      opts.log(`install of ${s.uuid} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  try {
    await s.deps.panel.setInstallationStatus(s.uuid, error === null, reinstall);
  } catch (err) {
    opts.log(`failed to notify panel of install state: ${err instanceof Error ? err.message : String(err)}`);
  }
  s.setState('offline');
  s.publish('install completed', '');
  return error === null;
}

/** After `POST /api/servers` answered 202: environment, install, optional start (wait 30 s for the lock). */
export async function afterCreate(s: SimServer, startOnCompletion: boolean, opts: InstallOptions): Promise<void> {
  await createEnvironment(s);
  if (s.destroyed) {
    return;
  }
  const ok = await install(s, false, opts);
  if (ok && startOnCompletion && !s.destroyed) {
    await handlePowerAction(s, 'start', 30).catch((err: unknown) => {
      opts.log(`start after install failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  }
}

/** `POST /install`: sync, then install (reinstall=false). A failed sync aborts silently. */
export async function installAfterSync(s: SimServer, opts: InstallOptions): Promise<void> {
  try {
    await s.sync();
  } catch (err) {
    opts.log(`failed to sync server state with Panel: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  await install(s, false, opts);
}

/** Server.Reinstall: stop (10 s then terminate), sync, install(reinstall=true). */
export async function reinstall(s: SimServer, opts: InstallOptions): Promise<void> {
  if (s.state !== 'offline') {
    await waitForStop(s, 10_000);
  }
  try {
    await s.sync();
  } catch (err) {
    opts.log(`install: failed to sync server state with Panel: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  await install(s, true, opts);
}
