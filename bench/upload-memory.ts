/**
 * A 200 MiB upload passes through the panel (POST /files/upload, streamed to the node's
 * signed upload URL) while the process's resident memory grows by less than 64 MiB.
 *
 * One process holds the client, the panel and the Wings simulator, so the figure is an upper
 * bound for the panel alone. Needs PostgreSQL (as the tests do) and the egg fixtures.
 *   npm run bench:upload [-- --mib 200]
 */
import 'test/setup/register-paths';
import { Readable } from 'node:stream';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { dropTestDatabases } from 'test/setup/drop-test-databases';
import { prepareTemplate } from 'test/setup/prepare-template';
import { TEST_ORIGIN } from 'test/utils/create-test-app';
import { startSimPanel, waitFor } from 'test/utils/sim-panel';

const MIB = 1024 * 1024;
const BUDGET_MIB = 64;

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

/** A multipart body with one `files` part of `size` bytes, generated as it is read. */
const multipart = (boundary: string, name: string, size: number): Readable => {
  const chunk = Buffer.alloc(256 * 1024, 'h');
  return Readable.from(
    (function* () {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      for (let left = size; left > 0; left -= chunk.length) {
        yield left >= chunk.length ? chunk : chunk.subarray(0, left);
      }
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    })(),
  );
};

const main = async (): Promise<void> => {
  const sizeMib = arg('mib', 200);
  await prepareTemplate();
  const p = await startSimPanel('postgres');
  try {
    const server = await p.createServer({ name: 'Upload bench' });
    await waitFor(async () => (await p.admin('get', `/api/admin/servers/${server.id}`).expect(200)).body.data.installStatus === null);
    // After the server exists: the node update pushes APP_URL as the daemon's panel address.
    await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ uploadSize: sizeMib + 16 }).expect(200);
    const url = `${await p.t.app.getUrl()}/api/client/servers/${server.uuid}/files/upload?directory=/`;
    const boundary = 'hatcherybench';
    const upload = async (name: string, bytes: number) => {
      const res = await request(url.replace('[::1]', '127.0.0.1'), {
        method: 'POST',
        headers: { cookie: p.ownerCookie, origin: TEST_ORIGIN, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: multipart(boundary, name, bytes),
      });
      const text = await res.body.text();
      if (res.statusCode !== 204) {
        throw new Error(`upload answered ${res.statusCode}: ${text}`);
      }
    };

    await upload('warmup.bin', MIB);
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const started = process.hrtime.bigint();
    await upload('big.bin', sizeMib * MIB);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    const written = (await stat(join(p.sim.servers.get(server.uuid)!.fs.root, 'big.bin'))).size;
    const growth = (peak - baseline) / MIB;
    const report = {
      uploadMiB: sizeMib,
      writtenBytes: written,
      seconds: Number(seconds.toFixed(2)),
      throughputMiBps: Number((sizeMib / seconds).toFixed(1)),
      rssBaselineMiB: Number((baseline / MIB).toFixed(1)),
      rssPeakMiB: Number((peak / MIB).toFixed(1)),
      rssGrowthMiB: Number(growth.toFixed(1)),
      budgetMiB: BUDGET_MIB,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    if (written !== sizeMib * MIB) {
      throw new Error(`the daemon wrote ${written} bytes, expected ${sizeMib * MIB}`);
    }
    if (growth >= BUDGET_MIB) {
      process.exitCode = 1;
      process.stderr.write(`resident memory grew by ${growth.toFixed(1)} MiB, over the ${BUDGET_MIB} MiB budget\n`);
    }
  } finally {
    await p.close();
    await dropTestDatabases();
  }
};

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
