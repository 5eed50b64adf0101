import { describe, expect, it } from 'vitest';
import { objectStoreConfig } from './index.js';

describe('objectStoreConfig', () => {
  it('keeps objects in the data directory by default', () => {
    expect(objectStoreConfig({}, '/data')).toEqual({ kind: 'filesystem', root: '/data/objects' });
  });

  it('reads the S3 settings', () => {
    const env = {
      TRIBUTARY_OBJECT_STORE: 's3',
      TRIBUTARY_S3_ENDPOINT: 'http://minio:9000',
      TRIBUTARY_S3_BUCKET: 'ci',
      TRIBUTARY_S3_ACCESS_KEY_ID: 'id',
      TRIBUTARY_S3_SECRET_ACCESS_KEY: 'secret',
      TRIBUTARY_S3_FORCE_PATH_STYLE: 'true',
    };
    expect(objectStoreConfig(env, '/data')).toEqual({ kind: 's3', endpoint: 'http://minio:9000', bucket: 'ci', region: 'us-east-1', accessKeyId: 'id', secretAccessKey: 'secret', forcePathStyle: true });
    expect(objectStoreConfig({ ...env, TRIBUTARY_S3_REGION: 'eu-west-1', TRIBUTARY_S3_FORCE_PATH_STYLE: '' }, '/data')).toMatchObject({ region: 'eu-west-1', forcePathStyle: false });
  });

  it('refuses an unknown kind or missing S3 settings at once', () => {
    expect(() => objectStoreConfig({ TRIBUTARY_OBJECT_STORE: 'ftp' }, '/data')).toThrow('TRIBUTARY_OBJECT_STORE must be "filesystem" or "s3"');
    expect(() => objectStoreConfig({ TRIBUTARY_OBJECT_STORE: 's3', TRIBUTARY_S3_ENDPOINT: 'http://x' }, '/data')).toThrow('TRIBUTARY_OBJECT_STORE=s3 needs TRIBUTARY_S3_BUCKET');
  });
});
