// Power state machine and the simulated container process, with Wings' crash detection.
import { SimProcess, SimServer } from 'test/wings-sim/sim-server';

/** Errors Wings returns from HandlePowerAction; reported only over the websocket. */
class PowerError extends Error {}

/** The power lock is held by another action (Wings' ErrLockerLocked). */
export class PowerLockedError extends PowerError {
  constructor() {
    super('locker: cannot acquire lock, already locked');
  }
}

const ERR_IS_RUNNING = 'server is running';
const ERR_SUSPENDED = 'server is currently in a suspended state';
const ERR_INSTALLING = 'server is currently installing';
const ERR_TRANSFERRING = 'server is currently being transferred';
const ERR_RESTORING = 'server is currently being restored';

const CRASH_TIMEOUT_S = 60;

/** Server.HandlePowerAction. `kill` bypasses a busy lock; others fail at once (or after waitSeconds). */
export async function handlePowerAction(s: SimServer, action: string, waitSeconds = 0): Promise<void> {
  if (s.restoring) {
    throw new PowerError(ERR_RESTORING);
  }
  if (s.transferring) {
    throw new PowerError(ERR_TRANSFERRING);
  }
  if (s.installing) {
    throw new PowerError(ERR_INSTALLING);
  }
  let holding = false;
  if (action !== 'kill') {
    if (!(await s.lock.acquire(Math.max(0, waitSeconds)))) {
      throw new PowerLockedError();
    }
    holding = true;
  } else {
    holding = s.lock.tryAcquire();
  }
  try {
    switch (action) {
      case 'start':
        if (s.state !== 'offline') {
          throw new PowerError(ERR_IS_RUNNING);
        }
        await beforeStart(s);
        startProcess(s);
        return;
      case 'stop':
      case 'restart':
        await waitForStop(s);
        if (action === 'stop') {
          return;
        }
        await beforeStart(s);
        startProcess(s);
        return;
      case 'kill':
        terminate(s);
        return;
      default:
        throw new PowerError('attempting to handle unknown power action');
    }
  } finally {
    if (holding) {
      s.lock.release();
    }
  }
}

/** onBeforeStart: sync with the panel, refuse suspended servers, daemon notices. */
async function beforeStart(s: SimServer): Promise<void> {
  try {
    await s.sync();
  } catch (err) {
    throw new PowerError(`unable to sync server data from Panel instance: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (s.suspended) {
    throw new PowerError(ERR_SUSPENDED);
  }
  if (s.config.build.disk_space > 0) {
    s.publishDaemon('Checking server disk space usage, this could take a few seconds...');
    if (!(await s.fs.hasSpaceAvailable())) {
      throw new PowerError('filesystem: not enough disk space');
    }
  }
  s.publishDaemon('Updating process configuration files...');
  s.publishDaemon('Ensuring file permissions are set correctly, this could take a few seconds...');
}

/** Environment.Start: state starting, container re-created (image "pulled"), attach, boot output. */
function startProcess(s: SimServer): void {
  s.setState('starting');
  s.logs.length = 0;
  s.resetNetwork();
  s.publishDaemon('Pulling Docker container image, this could take a few minutes to complete...');
  s.publishDaemon('Finished pulling Docker container image');

  let exit: (code: number) => void = () => undefined;
  const exited = new Promise<void>((resolve) => {
    exit = (code: number) => {
      if (s.proc !== proc) {
        return;
      }
      proc.exitCode = code;
      s.lastExitCode = code;
      for (const t of proc.timers) {
        clearTimeout(t);
      }
      clearInterval(stats);
      s.proc = null;
      resolve();
    };
  });
  const proc: SimProcess = { startedAt: Date.now(), timers: new Set(), exited, exit, exitCode: 0 };
  s.proc = proc;
  const stats = setInterval(() => {
    if (s.proc === proc && !s.destroyed) {
      void s.publishStats();
    }
  }, s.deps.timing.statsIntervalMs);
  stats.unref();

  const delay = s.deps.timing.lineDelayMs;
  const lines = [
    `[simulator] container ${s.config.container.image || 'unknown-image'} started: ${s.config.invocation}`,
    '[simulator] loading configuration...',
    '[simulator] preparing world...',
  ];
  const done = s.processConfig.startup.done.find((d) => !d.startsWith('regex:'));
  lines.forEach((line, i) => s.later(() => s.processOutput(line), delay * (i + 1)));
  s.later(
    () => {
      if (done !== undefined) {
        s.processOutput(done);
      } else if (s.processConfig.startup.done.length > 0) {
        // Only regex patterns: the simulator cannot invent a matching line, so it declares itself up.
        s.processOutput('[simulator] server ready (regex done pattern)');
        if (s.state === 'starting') {
          s.setState('running');
        }
      }
    },
    delay * (lines.length + 1),
  );
}

/** Environment.SendCommand: stdin write; the stop command switches to `stopping`. */
export function sendCommand(s: SimServer, command: string): void {
  if (!s.proc) {
    throw new PowerError('environment/docker: cannot send command to container: not attached');
  }
  const stop = s.processConfig.stop;
  const isStop = stop.type === 'command' && command === stop.value;
  if (isStop) {
    s.setState('stopping');
  }
  // The simulated game echoes what it reads on stdin.
  s.processOutput(command);
  if (isStop) {
    shutdownLater(s, 0);
  }
}

function shutdownLater(s: SimServer, code: number): void {
  const proc = s.proc;
  if (!proc) {
    return;
  }
  const delay = s.deps.timing.lineDelayMs;
  s.later(() => s.processOutput('[simulator] stopping server...'), delay);
  s.later(() => processExited(s, proc, code), delay * 2);
}

/** The container exited on its own or after a stop: offline (crash detection if it was up). */
function processExited(s: SimServer, proc: SimProcess, code: number): void {
  if (s.proc !== proc) {
    return;
  }
  proc.exit(code);
  s.setState('offline');
}

/** Environment.Stop per stop.type, then wait for the container to exit; terminate after the timeout. */
export async function waitForStop(s: SimServer, timeoutMs = 10 * 60 * 1000): Promise<void> {
  const stop = s.processConfig.stop;
  if (stop.type === '' || stop.type === 'signal') {
    terminate(s);
    return;
  }
  if (s.state !== 'offline') {
    s.setState('stopping');
  }
  const proc = s.proc;
  if (!proc) {
    return;
  }
  if (stop.type === 'command') {
    sendCommand(s, stop.value);
  } else {
    shutdownLater(s, 0);
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    proc.exited.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    terminate(s);
  }
}

/** Environment.Terminate: stopping → offline at once; a stopped container only settles the state. */
export function terminate(s: SimServer): void {
  const proc = s.proc;
  if (!proc) {
    if (s.state !== 'offline') {
      s.setState('stopping');
      s.setState('offline');
    }
    return;
  }
  s.setState('stopping');
  proc.exit(137);
  s.setState('offline');
}

/** Test hook: the process dies while starting/running, which Wings treats as a crash. */
export function crashProcess(s: SimServer, exitCode = 1): void {
  const proc = s.proc;
  if (!proc) {
    return;
  }
  proc.exit(exitCode);
  s.setState('offline');
}

/** handleServerCrash: messages, then an automatic start unless disabled or too soon. */
export function installCrashHandler(s: SimServer): void {
  s.onCrash = () => {
    if (s.state !== 'offline' || s.destroyed) {
      return;
    }
    if (!s.config.crash_detection_enabled) {
      s.publishDaemon('Aborting automatic restart, crash detection is disabled for this instance.');
      return;
    }
    s.publishDaemon('---------- Detected server process in a crashed state! ----------');
    s.publishDaemon(`Exit code: ${s.lastExitCode}`);
    s.publishDaemon('Out of memory: false');
    const now = Date.now();
    if (s.lastCrash !== null && s.lastCrash + CRASH_TIMEOUT_S * 1000 > now) {
      s.publishDaemon(`Aborting automatic restart, last crash occurred less than ${CRASH_TIMEOUT_S} seconds ago.`);
      return;
    }
    s.lastCrash = now;
    handlePowerAction(s, 'start').catch(() => {
      s.publishDaemon('Server crash was detected but an error occurred while handling it.');
    });
  };
}
