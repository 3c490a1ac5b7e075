import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get, IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Controller, Get } from '@nestjs/common';
import { Public } from 'src/common/auth/authenticated.decorator';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { freePort } from 'test/utils/free-port';
import { PANEL_ROOT, panelEntry } from 'test/utils/panel-process';
import { waitFor } from 'test/utils/sim-panel';

/** A request the test holds open: it answers only once the test lets it go (or never). */
const held = { entered: () => undefined as void, release: () => undefined as void };

@Controller('api/test/held')
class HeldController {
  @Get()
  @Public()
  async answer(): Promise<{ answered: true }> {
    await new Promise<void>((resolve) => {
      held.release = resolve;
      held.entered();
    });
    return { answered: true };
  }
}

/** Sends GET /api/test/held on a keep-alive agent; resolves once the handler runs. */
const holdRequest = async (t: TestApp, agent: Agent): Promise<{ response: Promise<IncomingMessage & { body: string }> }> => {
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  const entered = new Promise<void>((resolve) => {
    held.entered = resolve;
  });
  const response = new Promise<IncomingMessage & { body: string }>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/api/test/held', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(Object.assign(res, { body })));
      res.on('error', reject);
    }).on('error', reject);
  });
  // Fastify has the request once the handler runs; surface a connection error instead of waiting forever.
  await Promise.race([entered, response.then(() => undefined)]);
  return { response };
};

describe('Closing the panel with requests in flight on keep-alive connections', () => {
  let agent: Agent;

  beforeEach(() => {
    agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  });

  afterEach(() => {
    agent.destroy();
  });

  it('should let a running request finish, tell its client the connection closes, and not wait for the idle timeout (72 s)', async () => {
    const t = await createTestApp({ db: 'pglite', controllers: [HeldController] });
    await t.app.listen(0, '127.0.0.1');
    const { response } = await holdRequest(t, agent);
    const closed = t.close();
    // The answer comes once the panel has stopped listening (Nest's shutdown hooks run first).
    await waitFor(() => !t.app.getHttpServer().listening);
    held.release();
    const res = await response;
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ answered: true });
    expect(res.headers.connection).toBe('close');
    // Without the panel closing the connection itself, this waits for Fastify's 72 s keep-alive
    // timeout, past the test's own limit.
    await closed;
    expect(t.app.getHttpServer().listening).toBe(false);
  });

  it('should cut a request that never answers once the grace (10 s) is over, so the panel still stops', async () => {
    const t = await createTestApp({ db: 'pglite', controllers: [HeldController] });
    await t.app.listen(0, '127.0.0.1');
    const { response } = await holdRequest(t, agent);
    let outcome: string | undefined;
    void response.then(
      () => (outcome = 'answered'),
      (err: NodeJS.ErrnoException) => (outcome = err.code),
    );
    // The grace is a timer: only setTimeout is faked, so the test moves past it instead of waiting 10 s.
    jest.useFakeTimers({ doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval'] });
    try {
      let closed = false;
      void t.close().then(() => (closed = true));
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      for (let i = 0; i < 1000 && t.app.getHttpServer().listening; i++) {
        await turn();
      }
      expect(t.app.getHttpServer().listening).toBe(false);
      await jest.advanceTimersByTimeAsync(9_900);
      expect(outcome).toBeUndefined();
      await jest.advanceTimersByTimeAsync(100);
      for (let i = 0; i < 1000 && outcome === undefined; i++) {
        await turn();
      }
      expect(outcome).toBe('ECONNRESET');
      // The rest of the close may wait on timers of its own.
      for (let i = 0; i < 600 && !closed; i++) {
        await jest.advanceTimersByTimeAsync(100);
      }
      expect(closed).toBe(true);
    } finally {
      jest.useRealTimers();
      held.release();
    }
  });
});

describe('Draining on SIGTERM (SHUTDOWN_DRAIN_SECONDS), on the embedded database', () => {
  it('should answer its health check 503 SHUTTING_DOWN while it still serves every other request, then end by the signal', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'hatchery-drain-'));
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, panelEntry('main'), {
      cwd: PANEL_ROOT,
      env: { PATH: process.env.PATH, TS_NODE_PROJECT: 'tsconfig.json', NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), APP_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_SECONDS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    try {
      await waitFor(() => out.includes('Hatchery listening'), 60_000).catch(() => {
        throw new Error(`the panel did not start: ${out}`);
      });
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      child.kill('SIGTERM');
      await waitFor(async () => (await fetch(`${url}/api/health`)).status === 503);
      const health = await fetch(`${url}/api/health`);
      expect(await health.json()).toMatchObject({ statusCode: 503, code: 'SHUTTING_DOWN', message: 'The panel is shutting down' });
      expect((await fetch(`${url}/api/settings`)).status).toBe(200);
      expect(await exited).toBe('SIGTERM');
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
