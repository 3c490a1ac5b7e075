import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The lowest port the kernel hands out on its own (to a connection's local end, or to listen(0)):
 * Linux's ip_local_port_range, 32768 by default.
 */
const ephemeralFloor = (): number => {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 12_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
};

const CEILING = ephemeralFloor();
/** Below the kernel's own range, above the well-known services' ports most machines run. */
const FLOOR = CEILING - 10_000;
/** The ports this process has handed out: never twice. */
const given = new Set<number>();

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a server started a little later (a
 * simulator, Redis, PgBouncer, a panel process). Chosen at random below the kernel's ephemeral range:
 * a port the kernel picked (listen(0)) would be its to hand out again meanwhile, to any connection's
 * local end (a test once found its simulator's port taken that way, tens of seconds later).
 */
export const freePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = FLOOR + Math.floor(Math.random() * (CEILING - FLOOR));
    if (!given.has(port) && (await bindable(port))) {
      given.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${FLOOR} and ${CEILING}`);
};
