import { join } from 'node:path';
import { createFilesystemObjectStore } from './filesystem-store.js';
import type { ObjectStore } from './object-store.js';
import { createS3ObjectStore, type S3Config } from './s3-store.js';

export * from './object-store.js';
export type { S3Config } from './s3-store.js';

/** Which object store to use (TRIBUTARY_OBJECT_STORE and the TRIBUTARY_S3_* variables, see README). */
export type ObjectStoreConfig = { kind: 'filesystem'; root: string } | ({ kind: 's3' } & S3Config);

/**
 * Reads the object store settings from the environment: the data directory's `objects/` folder
 * by default, S3-compatible storage with TRIBUTARY_OBJECT_STORE=s3 (then endpoint, bucket and
 * keys are required: a start fails at once rather than at the first job log).
 */
export function objectStoreConfig(env: NodeJS.ProcessEnv, dataDir: string): ObjectStoreConfig {
  const kind = env.TRIBUTARY_OBJECT_STORE || 'filesystem';
  if (kind === 'filesystem') return { kind, root: join(dataDir, 'objects') };
  if (kind !== 's3') throw new Error(`TRIBUTARY_OBJECT_STORE must be "filesystem" or "s3", not ${JSON.stringify(kind)}`);
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`TRIBUTARY_OBJECT_STORE=s3 needs ${name}`);
    return value;
  };
  return {
    kind,
    endpoint: required('TRIBUTARY_S3_ENDPOINT'),
    bucket: required('TRIBUTARY_S3_BUCKET'),
    region: env.TRIBUTARY_S3_REGION || 'us-east-1',
    accessKeyId: required('TRIBUTARY_S3_ACCESS_KEY_ID'),
    secretAccessKey: required('TRIBUTARY_S3_SECRET_ACCESS_KEY'),
    forcePathStyle: ['true', '1'].includes((env.TRIBUTARY_S3_FORCE_PATH_STYLE ?? '').toLowerCase()),
  };
}

/** The configured store. The data directory's is prepared (folders made) on its first call. */
export function openObjectStore(config: ObjectStoreConfig): ObjectStore {
  if (config.kind === 's3') return createS3ObjectStore(config);
  let ready: Promise<ObjectStore> | undefined;
  const store = () => (ready ??= createFilesystemObjectStore(config.root));
  return {
    kind: 'filesystem',
    put: async (key, body) => (await store()).put(key, body),
    get: async (key, range) => (await store()).get(key, range),
    head: async (key) => (await store()).head(key),
    delete: async (key) => (await store()).delete(key),
    deletePrefix: async (prefix) => (await store()).deletePrefix(prefix),
    list: async (prefix) => (await store()).list(prefix),
  };
}
