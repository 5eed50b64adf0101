import { on, type Queryable } from '../../platform/db/database.js';

export interface LogChunk {
  start_offset: number;
  data: Buffer;
}

const toBuffer = (data: unknown): Buffer => (Buffer.isBuffer(data) ? data : Buffer.from(data as Uint8Array));

/** A job log's chunks while the runner sends them (table ci_log_chunks), by byte offset. */
export function createJobLogChunksRepository(db: Queryable) {
  return {
    /** The log's length so far: the end of its last chunk, 0 without chunks. */
    async size(jobId: number, tx?: Queryable): Promise<number> {
      const { rows } = await on(db, tx).query<{ size: string | number | null }>(
        'SELECT max(start_offset + octet_length(data)) AS size FROM ci_log_chunks WHERE job_id = $1',
        [jobId],
      );
      return Number(rows[0]?.size ?? 0);
    },

    async hasChunks(jobId: number, tx?: Queryable): Promise<boolean> {
      const { rows } = await on(db, tx).query('SELECT 1 FROM ci_log_chunks WHERE job_id = $1 LIMIT 1', [jobId]);
      return rows.length > 0;
    },

    /** Inserts a chunk; a chunk already at that offset is a unique violation (another append won). */
    async insert(jobId: number, startOffset: number, data: Buffer, tx?: Queryable): Promise<void> {
      await on(db, tx).query('INSERT INTO ci_log_chunks (job_id, start_offset, data) VALUES ($1, $2, $3)', [jobId, startOffset, data]);
    },

    /** The chunks that hold bytes at or after `from`, in order. */
    async chunksFrom(jobId: number, from: number, tx?: Queryable): Promise<LogChunk[]> {
      const { rows } = await on(db, tx).query<{ start_offset: string | number; data: unknown }>(
        'SELECT start_offset, data FROM ci_log_chunks WHERE job_id = $1 AND start_offset + octet_length(data) > $2 ORDER BY start_offset',
        [jobId, from],
      );
      return rows.map((row) => ({ start_offset: Number(row.start_offset), data: toBuffer(row.data) }));
    },

    async removeAll(jobId: number, tx?: Queryable): Promise<void> {
      await on(db, tx).query('DELETE FROM ci_log_chunks WHERE job_id = $1', [jobId]);
    },

    /** Jobs whose chunks were never turned into a final log object. */
    async jobIdsWithChunks(tx?: Queryable): Promise<number[]> {
      const { rows } = await on(db, tx).query<{ job_id: string | number }>('SELECT DISTINCT job_id FROM ci_log_chunks ORDER BY job_id');
      return rows.map((row) => Number(row.job_id));
    },
  };
}

export type JobLogChunksRepository = ReturnType<typeof createJobLogChunksRepository>;
