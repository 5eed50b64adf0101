import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { describe, expect, it } from 'vitest';
import { objectStoreContract } from './object-store-contract.js';
import { createS3ObjectStore, S3RequestError } from './s3-store.js';

/** s3rver: an S3-protocol server in this process, checking Signature Version 4 with its default key pair. */
async function startS3(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tributary-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'tributary', configs: [] }] });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1' };

objectStoreContract('S3 (s3rver)', async () => {
  const s3 = await startS3();
  return { store: createS3ObjectStore({ endpoint: s3.endpoint, bucket: 'tributary', forcePathStyle: true, ...credentials }), close: s3.close };
});

describe('the S3 store', () => {
  // s3rver checks the access key of a Signature Version 4 request but not the signature itself;
  // sigv4.test.ts checks the signature against AWS's documented example.
  it('turns S3\'s error answers into S3RequestError with their code', async () => {
    const s3 = await startS3();
    try {
      const store = createS3ObjectStore({ endpoint: s3.endpoint, bucket: 'tributary', forcePathStyle: true, ...credentials, accessKeyId: 'UNKNOWN' });
      const failure = await store.put('x', Buffer.from('x')).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(S3RequestError);
      expect((failure as S3RequestError).code).toBe('InvalidAccessKeyId');
      const noBucket = createS3ObjectStore({ endpoint: s3.endpoint, bucket: 'missing-bucket', forcePathStyle: true, ...credentials });
      expect(((await noBucket.list('').catch((error: unknown) => error)) as S3RequestError).code).toBe('NoSuchBucket');
    } finally {
      await s3.close();
    }
  });
});
