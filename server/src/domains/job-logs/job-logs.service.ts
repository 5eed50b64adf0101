import { Readable } from 'node:stream';
import { isUniqueViolation, type Database } from '../../platform/db/database.js';
import { objectKeys, type ObjectStore } from '../../platform/storage/index.js';
import type { JobLogChunksRepository } from './job-log-chunks.repository.js';

export type AppendResult = { accepted: true; size: number } | { accepted: false; size: number };

/**
 * Job logs (GitLab's traces). While a job runs, the runner sends the log in chunks, each at the
 * byte offset where the previous one ended (`Content-Range`); they are kept in the database and
 * can be read at once. When the job ends, `finalize` writes the whole log as one object
 * (`job-logs/<id>.log`) and only then deletes the chunks: a log is never lost between the
 * runner's chunks and its final store. A crash between the two leaves both, which read the
 * same; the next `finalize` (or `finalizePending`) finishes the move.
 */
export function createJobLogs(deps: { db: Pick<Database, 'transaction'>; chunks: JobLogChunksRepository; store: ObjectStore }) {
  const { chunks, store } = deps;

  /** Chunks first, then the object, for the reason `read` gives (no chunk is ever empty). */
  async function size(jobId: number): Promise<number> {
    const inChunks = await chunks.size(jobId);
    if (inChunks > 0) return inChunks;
    return (await store.head(objectKeys.jobLog(jobId)))?.size ?? 0;
  }

  /** `transform` rewrites the whole log on its way to the object (the runner protocol masks secrets there). */
  async function finalize(jobId: number, transform?: (log: Buffer) => Buffer): Promise<{ size: number }> {
    const all = await chunks.chunksFrom(jobId, 0);
    if (all.length === 0) return { size: (await store.head(objectKeys.jobLog(jobId)))?.size ?? 0 };
    const joined = Buffer.concat(all.map((chunk) => chunk.data));
    const log = transform ? transform(joined) : joined;
    // The object first (written whole, atomically), then the chunks go.
    await store.put(objectKeys.jobLog(jobId), log);
    await chunks.removeAll(jobId);
    return { size: log.length };
  }

  return {
    size,

    /**
     * Appends a chunk that starts where the log ends. Anything else (a gap, an overlap, a chunk
     * another request stored first) is refused with the log's size, which GitLab answers as
     * 416 with `Range: 0-<size>` so that the runner resends from there. The caller accepts
     * chunks only while the job runs.
     */
    async append(jobId: number, offset: number, data: Buffer): Promise<AppendResult> {
      if (data.length === 0) {
        const current = await size(jobId);
        return offset === current ? { accepted: true, size: current } : { accepted: false, size: current };
      }
      try {
        return await deps.db.transaction(async (tx) => {
          const current = await chunks.size(jobId, tx);
          if (offset !== current) return { accepted: false, size: current };
          await chunks.insert(jobId, offset, data, tx);
          return { accepted: true, size: current + data.length };
        });
      } catch (error) {
        if (isUniqueViolation(error)) return { accepted: false, size: await chunks.size(jobId) };
        throw error;
      }
    },

    /**
     * The log from `offset` on: from the chunks while they exist, else from the final object.
     * The chunks are read first and the object only when none came back: `finalize` may run
     * between any two reads here, and since it writes the object before it deletes the chunks,
     * a log whose chunks are gone is whole in its object (asking "are there chunks?" first
     * would read an empty log when the chunks go in between).
     */
    async read(jobId: number, offset = 0): Promise<Readable> {
      const fromChunks = await chunks.chunksFrom(jobId, offset);
      if (fromChunks.length > 0) {
        return Readable.from(fromChunks.map((chunk) => (chunk.start_offset < offset ? chunk.data.subarray(offset - chunk.start_offset) : chunk.data)));
      }
      // no chunk holds bytes from `offset`: it is at the end of a log still in chunks, or the log was finalized
      if (await chunks.hasChunks(jobId)) return Readable.from([]);
      if (!(await store.head(objectKeys.jobLog(jobId)))) return Readable.from([]);
      return store.get(objectKeys.jobLog(jobId), { offset });
    },

    finalize,

    /** Finalizes the logs a crash left in chunks; for jobs that have ended (the caller says which). */
    async finalizePending(isFinished: (jobId: number) => Promise<boolean>, transform?: (jobId: number) => Promise<(log: Buffer) => Buffer>): Promise<number[]> {
      const done: number[] = [];
      for (const jobId of await chunks.jobIdsWithChunks()) {
        if (!(await isFinished(jobId))) continue;
        await finalize(jobId, transform ? await transform(jobId) : undefined);
        done.push(jobId);
      }
      return done;
    },

    /** Erases a job's log (GitLab's job erase). */
    async remove(jobId: number): Promise<void> {
      await chunks.removeAll(jobId);
      await store.delete(objectKeys.jobLog(jobId));
    },
  };
}

export type JobLogs = ReturnType<typeof createJobLogs>;
