// Server transfers between nodes (docs/wings.md#transfers): the source streams, the target receives and reports.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, openAsBlob } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import * as tar from 'tar';
import { extractArchive } from 'test/wings-sim/archive';
import { JwtError, TokenError, parseSignedToken } from 'test/wings-sim/auth';
import { SimContext } from 'test/wings-sim/context';
import { HttpError, RequestContext, RouteTable, internalError, optionalString } from 'test/wings-sim/http-kit';
import { waitForStop } from 'test/wings-sim/power';
import { SimServer } from 'test/wings-sim/sim-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Outgoing transfers by server uuid: DELETE /api/servers/:server/transfer aborts one. */
const outgoing = new WeakMap<SimContext, Map<string, AbortController>>();

const outgoingOf = (sim: SimContext): Map<string, AbortController> => {
  let map = outgoing.get(sim);
  if (!map) {
    map = new Map();
    outgoing.set(sim, map);
  }
  return map;
};

/** `"<RFC1123 time> [Transfer System] [Source Node]: <msg>"` in yellow and bold, as Wings writes its transfer log lines. */
function transferLog(s: SimServer, side: 'Source Node' | 'Target Node', message: string): void {
  s.publish('transfer logs', `\u001b[33;1m${new Date().toUTCString()} [Transfer System] [${side}]: \u001b[0m${message}`);
}

const sha256File = async (file: string): Promise<string> => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
};

/**
 * The source's background work: archive the server, stream `archive` then `checksum` as multipart to
 * the target with `token` as Authorization, verbatim. On any error (except a cancel or a simulated
 * crash) it reports `transfer/failure` to the panel; it never reports success.
 */
async function pushArchive(sim: SimContext, s: SimServer, url: string, token: string, abort: AbortController): Promise<void> {
  const spool = await fsp.mkdtemp(path.join(os.tmpdir(), 'wings-sim-transfer-'));
  // Set when a fault cuts the stream: the source node "went down" mid-transfer.
  let died = false;
  try {
    s.publish('transfer status', 'processing');
    transferLog(s, 'Source Node', 'Preparing to stream server data to destination...');
    if (sim.faults.transferSourceFails) {
      throw new Error('simulated failure while writing the transfer archive');
    }
    const archive = path.join(spool, 'archive.tar.gz');
    // `.` as the one entry: an empty server still makes an archive the target can read.
    await tar.c({ gzip: true, cwd: s.fs.root, file: archive, portable: true }, ['.']);
    const checksum = await sha256File(archive);
    const form = new FormData();
    form.append('archive', await openAsBlob(archive, { type: 'application/octet-stream' }), 'archive.tar.gz');
    form.append('checksum', checksum);
    // FormData encodes the parts; sending its stream ourselves lets a fault cut it mid-way.
    const encoded = new Response(form);
    const contentType = encoded.headers.get('content-type') ?? '';
    let body: ReadableStream<Uint8Array> = encoded.body as ReadableStream<Uint8Array>;
    if (sim.faults.transferSourceDiesMidStream) {
      const half = Math.floor((await fsp.stat(archive)).size / 2);
      let sent = 0;
      const cut = new Transform({
        transform(chunk: Buffer, _enc, done) {
          const room = half - sent;
          sent += chunk.length;
          if (room >= chunk.length) {
            done(null, chunk);
            return;
          }
          // The first half goes out; then the node "dies".
          died = true;
          this.push(chunk.subarray(0, Math.max(0, room)));
          setTimeout(() => done(new Error('the source node went down mid-stream')), 50);
        },
      });
      body = Readable.toWeb(Readable.fromWeb(body as never).pipe(cut)) as ReadableStream<Uint8Array>;
    }
    transferLog(s, 'Source Node', 'Streaming archive to destination...');
    // A streamed body needs `duplex: 'half'`, which Node's fetch takes and the DOM typings do not list.
    const init: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      body,
      headers: { 'content-type': contentType, authorization: token },
      duplex: 'half',
      signal: abort.signal,
    };
    const res = await fetch(url, init);
    await res.arrayBuffer().catch(() => undefined);
    if (res.status < 200 || res.status >= 300) {
      throw new Error(`the target node answered ${res.status}`);
    }
    transferLog(s, 'Source Node', 'Finished streaming archive to destination.');
  } catch (err) {
    if (abort.signal.aborted) {
      s.publish('transfer status', 'cancelled');
      return;
    }
    if (died) {
      // A crash: nothing is reported; the node is down until the test brings it back.
      sim.log(`transfer of ${s.uuid}: the source node went down mid-stream`);
      sim.faults.down = true;
      return;
    }
    sim.log(`transfer of ${s.uuid} failed: ${err instanceof Error ? err.message : String(err)}`);
    transferLog(s, 'Source Node', `Transfer failed: ${err instanceof Error ? err.message : String(err)}`);
    s.publish('transfer status', 'failed');
    await sim.panel.request('POST', `/servers/${s.uuid}/transfer/failure`).catch((e: unknown) => sim.log(`failed to notify panel of the transfer failure: ${String(e)}`));
  } finally {
    s.transferring = false;
    outgoingOf(sim).delete(s.uuid);
    await fsp.rm(spool, { recursive: true, force: true });
  }
}

async function postTransfer(c: RequestContext, sim: SimContext): Promise<void> {
  const s = c.sim;
  const body = await c.bindJson();
  const url = optionalString(body, 'url');
  const token = optionalString(body, 'token');
  if (url === '' || token === '') {
    throw new HttpError(400, 'The url and token fields are required.');
  }
  if (s.transferring || outgoingOf(sim).has(s.uuid)) {
    throw new HttpError(409, 'A transfer is already in progress for this server.');
  }
  s.transferring = true;
  const abort = new AbortController();
  outgoingOf(sim).set(s.uuid, abort);
  if (s.state !== 'offline') {
    await waitForStop(s, 15_000);
  }
  c.empty(202);
  pushArchive(sim, s, url, token, abort).catch((err: unknown) => sim.log(`transfer: ${String(err)}`));
}

interface ReceivedParts {
  archive: string | null;
  archiveSha256: string;
  checksum: string | null;
  /** A checksum part came before the archive (Wings requires it after). */
  outOfOrder: boolean;
}

/** Reads `archive` (spooled to a file while hashed) then `checksum`. */
function receiveParts(c: RequestContext, spool: string): Promise<ReceivedParts> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: c.req.headers });
    } catch {
      reject(new Error('the request is not multipart'));
      return;
    }
    const parts: ReceivedParts = { archive: null, archiveSha256: '', checksum: null, outOfOrder: false };
    let write: Promise<void> = Promise.resolve();
    bb.on('file', (field, stream) => {
      if (field !== 'archive') {
        stream.resume();
        return;
      }
      const file = path.join(spool, 'archive.tar.gz');
      const hash = createHash('sha256');
      stream.on('data', (d: Buffer) => hash.update(d));
      parts.archive = file;
      write = pipeline(stream, createWriteStream(file)).then(() => {
        parts.archiveSha256 = hash.digest('hex');
      });
    });
    bb.on('field', (field, value) => {
      if (field === 'checksum') {
        parts.outOfOrder = parts.archive === null;
        parts.checksum = value;
      }
    });
    bb.on('close', () => {
      write.then(() => resolve(parts), reject);
    });
    bb.on('error', (e) => reject(e instanceof Error ? e : new Error(String(e))));
    c.req.on('aborted', () => reject(new Error('the source closed the connection mid-stream')));
    c.req.on('error', (e) => reject(e));
    c.req.pipe(bb);
  });
}

/**
 * The target: no node-token middleware; the JWT (signed with this node's token) names the server.
 * The server is created from the panel's configuration, the archive extracted and checked, then
 * success or failure is reported (unless the node is told to stay silent).
 */
async function postIncoming(c: RequestContext, sim: SimContext): Promise<void> {
  const header = c.req.headers.authorization ?? '';
  const match = /^Bearer (\S+)$/.exec(header);
  if (!match) {
    throw new HttpError(401, 'The required authorization heads were not present in the request.');
  }
  let uuid: string;
  try {
    const claims = parseSignedToken(match[1], sim.token());
    uuid = typeof claims.sub === 'string' ? claims.sub : '';
    if (!UUID.test(uuid)) {
      throw new TokenError('jwt: sub is not a uuid');
    }
  } catch (err) {
    sim.log(`incoming transfer refused: ${err instanceof JwtError || err instanceof TokenError ? err.message : String(err)}`);
    throw internalError();
  }
  const spool = await fsp.mkdtemp(path.join(os.tmpdir(), 'wings-sim-incoming-'));
  let s: SimServer | undefined;
  let ok = false;
  try {
    s = sim.servers.get(uuid);
    if (!s) {
      s = await sim.createServer(uuid, await sim.panel.getServerConfiguration(uuid));
    }
    s.transferring = true;
    s.publish('transfer status', 'processing');
    transferLog(s, 'Target Node', 'Receiving the server archive...');
    const parts = await receiveParts(c, spool);
    if (parts.archive === null || parts.checksum === null || parts.outOfOrder) {
      throw new Error('the archive or its checksum is missing, or out of order');
    }
    const expected = sim.faults.transferTargetFails ? `${parts.checksum}-mismatch` : parts.checksum;
    if (parts.archiveSha256 !== expected) {
      throw new Error('checksums don\'t match');
    }
    await extractArchive(s.fs, parts.archive, s.fs.root, { skipDenied: false });
    ok = true;
  } catch (err) {
    sim.log(`incoming transfer of ${uuid} failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await fsp.rm(spool, { recursive: true, force: true });
  }
  if (s) {
    s.transferring = false;
  }
  if (!ok && s) {
    // Wings deletes what it built of a transfer that failed.
    s.destroyed = true;
    sim.removeServer(s);
  }
  if (sim.faults.transferTargetSilent) {
    if (!c.res.headersSent) {
      c.empty(200);
    }
    return;
  }
  s?.publish('transfer status', ok ? 'success' : 'failure');
  await sim.panel
    .request('POST', `/servers/${uuid}/transfer/${ok ? 'success' : 'failure'}`)
    .catch((e: unknown) => sim.log(`failed to notify panel of the transfer result: ${String(e)}`));
  if (!c.res.headersSent && !c.res.destroyed) {
    if (ok) {
      c.empty(200);
    } else {
      c.error(500, 'An unexpected error was encountered while processing this request', true);
    }
  }
}

export function registerTransferRoutes(t: RouteTable, sim: SimContext): void {
  t.add('POST', '/api/servers/:server/transfer', 'server', (c) => postTransfer(c, sim));
  t.add('DELETE', '/api/servers/:server/transfer', 'server', (c) => {
    const abort = outgoingOf(sim).get(c.sim.uuid);
    if (!abort) {
      throw new HttpError(409, 'Server is not currently being transferred.');
    }
    c.sim.publish('transfer status', 'cancelling');
    abort.abort();
    c.empty(202);
  });
  t.add('POST', '/api/transfers', 'public', (c) => postIncoming(c, sim));
  // Registered without ServerExists in this Wings snapshot, so it panics: 500 (docs/wings.md#transfers).
  t.add('DELETE', '/api/transfers/:server', 'token', () => {
    throw internalError();
  });
}
