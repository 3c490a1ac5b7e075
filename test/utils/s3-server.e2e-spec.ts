import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startTestS3, TestS3Server } from 'test/utils/s3-server';

/** The test S3 server checks what real S3 checks: if these fail, the S3 backup tests prove nothing about signing. */
describe('test S3 server', () => {
  let s3: TestS3Server;
  const client = (secretAccessKey?: string, strictChecksums = true): S3Client =>
    new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.credentials.accessKeyId, secretAccessKey: secretAccessKey ?? s3.credentials.secretAccessKey },
      ...(strictChecksums ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
    });

  beforeAll(async () => {
    s3 = await startTestS3();
  });
  afterAll(() => s3.close());

  it('should take header-signed requests with the right secret and refuse a wrong one with 403', async () => {
    await client().send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'a.txt', Body: 'hello' }));
    expect(await s3.objectSize('a.txt')).toBe(5);
    await expect(client('not-the-secret').send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'b.txt', Body: 'x' }))).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
      $metadata: { httpStatusCode: 403 },
    });
    await expect(client('not-the-secret').send(new HeadBucketCommand({ Bucket: s3.bucket }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    expect(await s3.objectSize('b.txt')).toBeNull();
  });

  it('should refuse unsigned requests, tampered and expired presigned URLs', async () => {
    expect((await fetch(`${s3.endpoint}/${s3.bucket}/a.txt`)).status).toBe(403);
    const url = await getSignedUrl(client(), new GetObjectCommand({ Bucket: s3.bucket, Key: 'a.txt' }), { expiresIn: 60 });
    expect(await (await fetch(url)).text()).toBe('hello');
    expect((await fetch(url.replace('a.txt', 'b.txt'))).status).toBe(403);
    const wrong = await getSignedUrl(client('not-the-secret'), new GetObjectCommand({ Bucket: s3.bucket, Key: 'a.txt' }), { expiresIn: 60 });
    expect((await fetch(wrong)).status).toBe(403);
    const old = await getSignedUrl(client(), new GetObjectCommand({ Bucket: s3.bucket, Key: 'a.txt' }), { expiresIn: 60, signingDate: new Date(Date.now() - 120_000) });
    const expired = await fetch(old);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
  });

  it('should refuse a body that does not match its checksums with BadDigest', async () => {
    const bad = await fetch(`${s3.endpoint}/${s3.bucket}/c.txt`, { method: 'PUT', body: 'abc', headers: { 'content-md5': 'AAAAAAAAAAAAAAAAAAAAAA==' } });
    expect(bad.status).toBe(403); // unsigned first
    // The default client presigns an UploadPart with the CRC32 of an empty body: real S3 refuses the part.
    const { UploadId } = await client().send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: 'parts.bin' }));
    const loose = await getSignedUrl(client(undefined, false), new UploadPartCommand({ Bucket: s3.bucket, Key: 'parts.bin', UploadId, PartNumber: 1 }), {
      expiresIn: 60,
    });
    const refused = await fetch(loose, { method: 'PUT', body: 'part one' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('BadDigest');
    const strict = await getSignedUrl(client(), new UploadPartCommand({ Bucket: s3.bucket, Key: 'parts.bin', UploadId, PartNumber: 1 }), { expiresIn: 60 });
    expect((await fetch(strict, { method: 'PUT', body: 'part one' })).status).toBe(200);
  });

  it('should list and abort multipart uploads, and refuse parts of an aborted one', async () => {
    const { UploadId } = await client().send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: 'x/abandoned.bin' }));
    const listed = await client().send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: 'x/' }));
    expect(listed.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([['x/abandoned.bin', UploadId]]);
    await client().send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: 'x/abandoned.bin', UploadId }));
    expect((await client().send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: 'x/' }))).Uploads ?? []).toEqual([]);
    const url = await getSignedUrl(client(), new UploadPartCommand({ Bucket: s3.bucket, Key: 'x/abandoned.bin', UploadId, PartNumber: 1 }), { expiresIn: 60 });
    expect((await fetch(url, { method: 'PUT', body: 'late' })).status).toBe(404);
  });
});
