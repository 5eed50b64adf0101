import type { Readable } from 'node:stream';

/**
 * Where job logs, artifacts and caches live: a data directory (the default) or S3-compatible
 * object storage. Keys are `/`-separated relative paths (`job-logs/12.log`); every
 * implementation refuses a key that could leave its root (`assertObjectKey`).
 */
export interface ObjectInfo {
  key: string;
  size: number;
}

/** A byte range: `length` bytes from `offset` (to the end when `length` is absent). */
export interface ByteRange {
  offset: number;
  length?: number;
}

export interface ObjectStore {
  readonly kind: 'filesystem' | 's3';
  /** Stores an object whole: readers see the old object or the new one, never a part. */
  put(key: string, body: Buffer | Readable): Promise<void>;
  /** The object's bytes (or a range of them); ObjectNotFoundError when there is none. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The object's size, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  /** Deletes one object; deleting a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix`; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** The objects whose key starts with `prefix`, in key order. */
  list(prefix: string): Promise<ObjectInfo[]>;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
  }
}

export class InvalidObjectKeyError extends Error {
  constructor(readonly key: string) {
    super(`invalid object key: ${JSON.stringify(key)}`);
  }
}

/** Keys are relative paths of plain segments: no `..` or `.`, no empty segment, no backslash or NUL, at most 1024 bytes. */
export function assertObjectKey(key: string): void {
  if (!isValidObjectKey(key)) throw new InvalidObjectKeyError(key);
}

export function isValidObjectKey(key: string): boolean {
  if (key.length === 0 || Buffer.byteLength(key) > 1024) return false;
  if (/[\\\0]/.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** A prefix is a key, or a key's start ending in `/`; the empty prefix means everything. */
export function assertObjectPrefix(prefix: string): void {
  if (prefix === '') return;
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (!isValidObjectKey(trimmed)) throw new InvalidObjectKeyError(prefix);
}

/**
 * Where each kind of CI data is kept. Caches are split by protected and unprotected refs so a
 * job on an unprotected branch can never write a cache that a protected branch's job reads.
 */
export const objectKeys = {
  jobLog: (jobId: number) => `job-logs/${jobId}.log`,
  artifact: (projectId: number, jobId: number, name: string) => `artifacts/${projectId}/${jobId}/${encodeURIComponent(name)}`,
  artifactsOfJob: (projectId: number, jobId: number) => `artifacts/${projectId}/${jobId}/`,
  cache: (projectId: number, protectedRef: boolean, cacheKey: string) => `caches/${projectId}/${protectedRef ? 'protected' : 'unprotected'}/${encodeURIComponent(cacheKey)}`,
  cachesOfProject: (projectId: number) => `caches/${projectId}/`,
};
