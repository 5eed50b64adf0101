import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../platform/db/migrate.js';
import { createFilesystemObjectStore } from '../../platform/storage/filesystem-store.js';
import { objectKeys, type ObjectStore } from '../../platform/storage/index.js';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../../test-support/database.js';
import { createJobLogChunksRepository } from './job-log-chunks.repository.js';
import { createJobLogs } from './job-logs.service.js';

/** Job logs: appended by offset, readable while written, finalized into one object, never lost on the way. */
describe(`job logs (${testDatabaseKind()})`, () => {
  let db: TestDatabase;
  let dir: string;
  let store: ObjectStore;
  let nextJob = 1000;

  beforeAll(async () => {
    db = await openTestDatabase();
    await migrate(db);
    dir = await mkdtemp(join(tmpdir(), 'tributary-job-logs-'));
    store = await createFilesystemObjectStore(join(dir, 'objects'));
  });
  afterAll(async () => {
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const logsWith = (overrides: { store?: Partial<ObjectStore>; removeAll?: () => Promise<void> } = {}) => {
    const chunks = createJobLogChunksRepository(db);
    return createJobLogs({
      db,
      chunks: overrides.removeAll ? { ...chunks, removeAll: overrides.removeAll } : chunks,
      store: { ...store, ...overrides.store },
    });
  };
  const read = async (logs: ReturnType<typeof logsWith>, jobId: number, offset?: number) => text(await logs.read(jobId, offset));

  it('appends chunks at the offset where the log ends, refuses gaps and overlaps with the size, reads while written', async () => {
    const logs = logsWith();
    const job = nextJob++;
    expect(await logs.append(job, 0, Buffer.from('Running with gitlab-runner\n'))).toEqual({ accepted: true, size: 27 });
    expect(await read(logs, job)).toBe('Running with gitlab-runner\n');
    expect(await logs.append(job, 30, Buffer.from('gap'))).toEqual({ accepted: false, size: 27 });
    expect(await logs.append(job, 10, Buffer.from('overlap'))).toEqual({ accepted: false, size: 27 });
    expect(await logs.append(job, 27, Buffer.from('$ make test\n'))).toEqual({ accepted: true, size: 39 });
    expect(await read(logs, job)).toBe('Running with gitlab-runner\n$ make test\n');
    expect(await read(logs, job, 30)).toBe('ake test\n');
    expect(await logs.size(job)).toBe(39);
  });

  it('lets one of two chunks sent for the same offset in', async () => {
    const logs = logsWith();
    const job = nextJob++;
    const results = await Promise.all([logs.append(job, 0, Buffer.from('first')), logs.append(job, 0, Buffer.from('second'))]);
    expect(results.filter((result) => result.accepted)).toHaveLength(1);
    expect(['first', 'second']).toContain(await read(logs, job));
  });

  it('finalizes into one object and deletes the chunks after it; the log reads the same before and after', async () => {
    const logs = logsWith();
    const job = nextJob++;
    await logs.append(job, 0, Buffer.from('one\n'));
    await logs.append(job, 4, Buffer.from('two\n'));
    expect(await logs.finalize(job)).toEqual({ size: 8 });
    expect(await text(await store.get(objectKeys.jobLog(job)))).toBe('one\ntwo\n');
    expect(await createJobLogChunksRepository(db).hasChunks(job)).toBe(false);
    expect(await read(logs, job)).toBe('one\ntwo\n');
    expect(await read(logs, job, 4)).toBe('two\n');
    expect(await logs.size(job)).toBe(8);
    expect(await logs.finalize(job)).toEqual({ size: 8 });
  });

  it('reads the whole log when it is finalized while being read', async () => {
    const job = nextJob++;
    const chunks = createJobLogChunksRepository(db);
    const plain = logsWith();
    await plain.append(job, 0, Buffer.from('Coverage: 81.25%\n'));
    // the job ends (and its log moves to the object) just as a reader asks for the chunks
    const racing = createJobLogs({ db, store, chunks: { ...chunks, chunksFrom: async (id, from, tx) => (await plain.finalize(id), chunks.chunksFrom(id, from, tx)) } });
    expect(await read(racing, job)).toBe('Coverage: 81.25%\n');
  });

  it('loses nothing when the object store fails before the final object is written', async () => {
    const job = nextJob++;
    const broken = logsWith({ store: { put: async () => Promise.reject(new Error('object store unreachable')) } });
    await broken.append(job, 0, Buffer.from('build output\n'));
    await expect(broken.finalize(job)).rejects.toThrow('object store unreachable');
    const logs = logsWith();
    expect(await read(logs, job)).toBe('build output\n');
    expect(await store.head(objectKeys.jobLog(job))).toBeNull();
    expect(await logs.finalizePending(async () => true)).toContain(job);
    expect(await text(await store.get(objectKeys.jobLog(job)))).toBe('build output\n');
  });

  it('loses nothing, and duplicates nothing, when the process dies between writing the object and deleting the chunks', async () => {
    const job = nextJob++;
    const crashing = logsWith({ removeAll: async () => Promise.reject(new Error('killed')) });
    await crashing.append(job, 0, Buffer.from('step 1\n'));
    await crashing.append(job, 7, Buffer.from('step 2\n'));
    await expect(crashing.finalize(job)).rejects.toThrow('killed');
    // both the object and the chunks exist now: the log reads once, whole
    const logs = logsWith();
    expect(await text(await store.get(objectKeys.jobLog(job)))).toBe('step 1\nstep 2\n');
    expect(await read(logs, job)).toBe('step 1\nstep 2\n');
    expect(await logs.size(job)).toBe(14);
    // a recovery pass (after a restart) finishes the move for jobs that ended, and only those
    expect(await logs.finalizePending(async (id) => id !== job)).not.toContain(job);
    expect(await logs.finalizePending(async (id) => id === job)).toEqual([job]);
    expect(await createJobLogChunksRepository(db).hasChunks(job)).toBe(false);
    expect(await read(logs, job)).toBe('step 1\nstep 2\n');
  });

  it('erases a log', async () => {
    const logs = logsWith();
    const job = nextJob++;
    await logs.append(job, 0, Buffer.from('secret'));
    await logs.finalize(job);
    await logs.remove(job);
    expect(await read(logs, job)).toBe('');
    expect(await logs.size(job)).toBe(0);
  });
});
