import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import S3rver from 's3rver';
import { errorMessage } from 'src/common/errors/error-message';

/**
 * An S3-compatible server for tests: s3rver (which stores objects and parts but accepts any signature
 * and has no abort or listing of multipart uploads) behind a front that adds what real S3 checks:
 * - SigV4 signatures, in the Authorization header or presigned in the query, recomputed with the AWS
 *   SDK's own signer; an unknown key or a wrong signature is 403, an expired presigned URL 403, a
 *   header-signed request more than 15 minutes off 403 (RequestTimeTooSkewed);
 * - payload checksums: x-amz-content-sha256 (unless UNSIGNED-PAYLOAD), Content-MD5 and
 *   x-amz-checksum-crc32 (header or presigned query) against the body received, 400 BadDigest;
 * - ListMultipartUploads and AbortMultipartUpload, from the uploads the front saw begin; a part PUT to
 *   an aborted or completed upload is 404 NoSuchUpload.
 */

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface TrackedUpload {
  bucket: string;
  key: string;
  uploadId: string;
  initiated: Date;
}

export interface TestS3Server {
  /** `http://127.0.0.1:<port>`, for path-style access. */
  endpoint: string;
  bucket: string;
  credentials: S3Credentials;
  region: string;
  /** Multipart uploads begun and neither completed nor aborted. */
  uploads(): TrackedUpload[];
  /** Moves every open upload's start back by `ms` (a stale upload without waiting). */
  ageUploads(ms: number): void;
  /** Every request the front answered: method, path with query, status. */
  readonly log: { method: string; url: string; status: number }[];
  /** Object size in bytes, or null when there is none (read through s3rver, unsigned). */
  objectSize(key: string): Promise<number | null>;
  close(): Promise<void>;
}

/** What the presigner adds to a URL, the signature included. */
const PRESIGN_QUERY = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature'];
const AUTH_QUERY = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Content-Sha256'];
const UNSIGNED = 'UNSIGNED-PAYLOAD';
const SKEW_MS = 15 * 60 * 1000;

const xmlEscape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const sendError = (res: ServerResponse, e: S3Failure, resource: string): void => {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${e.code}</Code><Message>${xmlEscape(e.message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>${randomUUID()}</RequestId></Error>`;
  res.writeHead(e.status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

/** `20260304T050607Z` → Date. */
const amzDate = (v: string | undefined): Date | null => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v ?? '');
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : null;
};

/** `AKID/20260304/us-east-1/s3/aws4_request`. */
const parseCredential = (v: string | undefined): { accessKeyId: string; region: string; service: string } | null => {
  const parts = (v ?? '').split('/');
  return parts.length === 5 && parts[4] === 'aws4_request' ? { accessKeyId: parts[0], region: parts[2], service: parts[3] } : null;
};

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const crc32Base64 = (body: Buffer): string => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32(body) >>> 0);
  return out.toString('base64');
};

export async function startTestS3(options: { bucket?: string; credentials?: S3Credentials; region?: string } = {}): Promise<TestS3Server> {
  const bucket = options.bucket ?? 'hatchery-backups';
  const credentials = options.credentials ?? { accessKeyId: 'HATCHERYTESTKEY', secretAccessKey: 'hatchery-test-secret-key-0123456789' };
  const region = options.region ?? 'us-east-1';
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const backend = (await s3rver.run());
  const open = new Map<string, TrackedUpload>();
  const log: TestS3Server['log'] = [];
  const signer = new SignatureV4({ credentials, region, service: 's3', sha256: Sha256, uriEscapePath: false });

  /** Checks the signature (header or presigned) of a request; throws the S3 error real S3 would send. */
  const verify = async (req: IncomingMessage, url: URL, body: Buffer): Promise<void> => {
    const query = Object.fromEntries(url.searchParams);
    const headerAuth = req.headers.authorization;
    const presigned = query['X-Amz-Algorithm'] !== undefined;
    if (!headerAuth && !presigned) {
      throw new S3Failure(403, 'AccessDenied', 'Access Denied');
    }
    let credential: ReturnType<typeof parseCredential>;
    let signedHeaders: string[];
    let signature: string;
    let date: Date | null;
    if (headerAuth) {
      const m = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(headerAuth);
      if (!m) {
        throw new S3Failure(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed');
      }
      [credential, signedHeaders, signature, date] = [parseCredential(m[1]), m[2].split(';'), m[3], amzDate(req.headers['x-amz-date'] as string)];
    } else {
      [credential, signedHeaders, signature, date] = [
        parseCredential(query['X-Amz-Credential']),
        (query['X-Amz-SignedHeaders'] ?? '').split(';'),
        query['X-Amz-Signature'] ?? '',
        amzDate(query['X-Amz-Date']),
      ];
    }
    if (!credential || !date) {
      throw new S3Failure(400, 'AuthorizationQueryParametersError', 'The credential or date is malformed');
    }
    if (credential.accessKeyId !== credentials.accessKeyId) {
      throw new S3Failure(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    }
    const headers: Record<string, string> = {};
    for (const name of signedHeaders) {
      const value = req.headers[name];
      headers[name] = Array.isArray(value) ? value.join(',') : (value ?? '');
    }
    const base = { method: req.method ?? 'GET', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname };
    let expected: string;
    if (headerAuth) {
      const signed = await signer.sign(
        { ...base, headers, query, body: undefined },
        { signingDate: date, signingRegion: credential.region, signingService: credential.service },
      );
      expected = /Signature=([0-9a-f]{64})/.exec(signed.headers.authorization ?? '')?.[1] ?? '';
    } else {
      // The signer hoists x-amz-* headers into the query (keeping their case): hand them back as headers.
      const signedParams = Object.entries(query).filter(([k]) => !PRESIGN_QUERY.includes(k));
      const hoisted = Object.fromEntries(signedParams.filter(([k]) => k.toLowerCase().startsWith('x-amz-')));
      const rest = Object.fromEntries(signedParams.filter(([k]) => !k.toLowerCase().startsWith('x-amz-')));
      const expiresIn = Number(query['X-Amz-Expires']);
      const presignedAgain = await signer.presign(
        { ...base, headers: { ...headers, ...hoisted }, query: rest },
        { signingDate: date, expiresIn, signingRegion: credential.region, signingService: credential.service },
      );
      expected = String(presignedAgain.query?.['X-Amz-Signature'] ?? '');
      if (!(expiresIn > 0) || Date.now() > date.getTime() + expiresIn * 1000) {
        throw new S3Failure(403, 'AccessDenied', 'Request has expired');
      }
    }
    if (expected !== signature) {
      throw new S3Failure(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
    }
    if (headerAuth && Math.abs(Date.now() - date.getTime()) > SKEW_MS) {
      throw new S3Failure(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
    }
    const contentSha = (req.headers['x-amz-content-sha256'] as string | undefined) ?? query['X-Amz-Content-Sha256'];
    if (contentSha && contentSha !== UNSIGNED && !contentSha.startsWith('STREAMING-') && createHash('sha256').update(body).digest('hex') !== contentSha) {
      throw new S3Failure(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
    }
    const md5 = req.headers['content-md5'] as string | undefined;
    if (md5 !== undefined && createHash('md5').update(body).digest('base64') !== md5) {
      throw new S3Failure(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
    }
    const crc = (req.headers['x-amz-checksum-crc32'] as string | undefined) ?? query['x-amz-checksum-crc32'];
    if (crc !== undefined && crc32Base64(body) !== crc) {
      throw new S3Failure(400, 'BadDigest', 'The CRC32 you specified did not match the calculated checksum.');
    }
  };

  /** Passes the request on to s3rver without its credentials (s3rver takes anonymous requests). */
  const forward = (req: IncomingMessage, url: URL, body: Buffer): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> => {
    // s3rver takes no response-* overrides on anonymous requests: the front applies them (S3 does for signed ones).
    const params = new URLSearchParams([...url.searchParams].filter(([k]) => !AUTH_QUERY.includes(k) && !k.startsWith('response-')));
    const overrides = Object.fromEntries([...url.searchParams].filter(([k]) => k.startsWith('response-')).map(([k, v]) => [k.slice('response-'.length), v]));
    const headers = { ...req.headers, host: `127.0.0.1:${backend.port}`, 'content-length': String(body.length) };
    delete headers.authorization;
    delete headers['transfer-encoding'];
    return new Promise((resolve, reject) => {
      const out = httpRequest(
        { host: '127.0.0.1', port: backend.port, method: req.method, path: `${url.pathname}${params.size > 0 ? `?${params.toString()}` : ''}`, headers },
        (res) => {
          const status = res.statusCode ?? 500;
          const answerHeaders = status === 200 ? { ...res.headers, ...overrides } : res.headers;
          readBody(res).then((b) => resolve({ status, headers: answerHeaders, body: b }), reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  };

  const listUploads = (res: ServerResponse, prefix: string): void => {
    const items = [...open.values()]
      .filter((u) => u.bucket === bucket && u.key.startsWith(prefix))
      .sort((a, b) => a.key.localeCompare(b.key) || a.uploadId.localeCompare(b.uploadId))
      .map(
        (u) =>
          `<Upload><Key>${xmlEscape(u.key)}</Key><UploadId>${u.uploadId}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
      )
      .join('');
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket><Prefix>${xmlEscape(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${items}</ListMultipartUploadsResult>`;
    res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const body = await readBody(req);
    const [, bucketName = '', ...keyParts] = url.pathname.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    const resource = url.pathname;
    try {
      await verify(req, url, body);
      if (bucketName !== bucket) {
        throw new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist');
      }
      const uploadId = url.searchParams.get('uploadId');
      if (req.method === 'GET' && key === '' && url.searchParams.has('uploads')) {
        listUploads(res, url.searchParams.get('prefix') ?? '');
        return 200;
      }
      if (uploadId !== null && !open.has(uploadId)) {
        throw new S3Failure(404, 'NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.');
      }
      if (req.method === 'DELETE' && uploadId !== null) {
        open.delete(uploadId);
        res.writeHead(204).end();
        return 204;
      }
      const answer = await forward(req, url, body);
      if (answer.status === 200 && req.method === 'POST' && url.searchParams.has('uploads')) {
        const id = /<UploadId>([^<]+)<\/UploadId>/.exec(answer.body.toString('utf8'))?.[1];
        if (id) {
          open.set(id, { bucket, key, uploadId: id, initiated: new Date() });
        }
      }
      if (answer.status === 200 && req.method === 'POST' && uploadId !== null) {
        open.delete(uploadId);
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
      return answer.status;
    } catch (e) {
      if (e instanceof S3Failure) {
        sendError(res, e, resource);
        return e.status;
      }
      throw e;
    }
  };

  const front: Server = createServer((req, res) => {
    handle(req, res)
      .then((status) => log.push({ method: req.method ?? '', url: req.url ?? '', status }))
      .catch((e: unknown) => {
        log.push({ method: req.method ?? '', url: req.url ?? '', status: 500 });
        if (!res.headersSent) {
          sendError(res, new S3Failure(500, 'InternalError', errorMessage(e)), req.url ?? '');
        }
      });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  return {
    endpoint,
    bucket,
    credentials,
    region,
    log,
    uploads: () => [...open.values()],
    ageUploads: (ms) => {
      for (const u of open.values()) {
        u.initiated = new Date(u.initiated.getTime() - ms);
      }
    },
    objectSize: async (key) => {
      const url = new URL(`${endpoint}/${bucket}/${key}`);
      const answer = await forward({ method: 'HEAD', headers: {} } as IncomingMessage, url, Buffer.alloc(0));
      return answer.status === 200 ? Number(answer.headers['content-length']) : null;
    },
    close: async () => {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await s3rver.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
