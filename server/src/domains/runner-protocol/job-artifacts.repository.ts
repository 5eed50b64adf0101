import type { Database } from '../../platform/db/database.js';

export interface JobArtifactRow {
  id: number;
  job_id: number;
  project_id: number;
  file_type: string;
  file_format: string;
  filename: string;
  size: number;
  object_key: string;
  expire_at: Date | null;
}

const COLUMNS = 'id, job_id, project_id, file_type, file_format, filename, size, object_key, expire_at';
const toRow = (row: JobArtifactRow): JobArtifactRow => ({ ...row, id: Number(row.id), job_id: Number(row.job_id), project_id: Number(row.project_id), size: Number(row.size) });

/** The SQL of job artifacts (ci_job_artifacts). */
export function createJobArtifactsRepository(db: Pick<Database, 'query'>) {
  return {
    /** Records an upload; a second upload of the same type replaces the first (the runner retries): the replaced object's key is returned. */
    async upsert(row: Omit<JobArtifactRow, 'id'>): Promise<{ row: JobArtifactRow; replacedKey: string | null }> {
      const { rows } = await db.query<JobArtifactRow & { replaced_key: string | null }>(
        `WITH previous AS (SELECT object_key FROM ci_job_artifacts WHERE job_id = $1 AND file_type = $3 FOR UPDATE)
         INSERT INTO ci_job_artifacts (job_id, project_id, file_type, file_format, filename, size, object_key, expire_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (job_id, file_type) DO UPDATE SET file_format = EXCLUDED.file_format, filename = EXCLUDED.filename, size = EXCLUDED.size,
           object_key = EXCLUDED.object_key, expire_at = EXCLUDED.expire_at, created_at = now()
         RETURNING ${COLUMNS}, (SELECT object_key FROM previous) AS replaced_key`,
        [row.job_id, row.project_id, row.file_type, row.file_format, row.filename, row.size, row.object_key, row.expire_at],
      );
      const { replaced_key: replacedKey, ...stored } = rows[0]!;
      return { row: toRow(stored), replacedKey };
    },
    async archiveOf(jobId: number): Promise<JobArtifactRow | null> {
      const { rows } = await db.query<JobArtifactRow>(`SELECT ${COLUMNS} FROM ci_job_artifacts WHERE job_id = $1 AND file_type = 'archive'`, [jobId]);
      return rows[0] ? toRow(rows[0]) : null;
    },
    /** The archives of these jobs (a job's dependencies). */
    async archivesOf(jobIds: readonly number[]): Promise<JobArtifactRow[]> {
      if (jobIds.length === 0) return [];
      const { rows } = await db.query<JobArtifactRow>(`SELECT ${COLUMNS} FROM ci_job_artifacts WHERE job_id = ANY($1::bigint[]) AND file_type = 'archive' ORDER BY job_id`, [jobIds]);
      return rows.map(toRow);
    },
    /** The latest successful job named `jobName` with an archive, in the pipelines of `ref` (newest pipeline first). */
    async latestJobWithArchive(projectId: number, ref: string, jobName: string): Promise<number | null> {
      const { rows } = await db.query<{ id: number }>(
        `SELECT b.id FROM ci_builds b
           JOIN ci_pipelines p ON p.id = b.pipeline_id
           JOIN ci_job_artifacts a ON a.job_id = b.id AND a.file_type = 'archive'
          WHERE p.project_id = $1 AND p.ref = $2 AND b.name = $3 AND b.status = 'success' AND NOT b.retried
          ORDER BY p.id DESC, b.id DESC LIMIT 1`,
        [projectId, ref, jobName],
      );
      return rows[0] ? Number(rows[0].id) : null;
    },
    /** Every artifact of these jobs (the jobs API lists them with each job), by job and type. */
    async forJobs(jobIds: readonly number[]): Promise<JobArtifactRow[]> {
      if (jobIds.length === 0) return [];
      const { rows } = await db.query<JobArtifactRow>(`SELECT ${COLUMNS} FROM ci_job_artifacts WHERE job_id = ANY($1::bigint[]) ORDER BY job_id, file_type`, [jobIds]);
      return rows.map(toRow);
    },
    /** GitLab's "Keep": the job's artifacts no longer expire. */
    async keep(jobId: number): Promise<void> {
      await db.query('UPDATE ci_job_artifacts SET expire_at = NULL WHERE job_id = $1', [jobId]);
    },
    async removeForJob(jobId: number): Promise<JobArtifactRow[]> {
      const { rows } = await db.query<JobArtifactRow>(`DELETE FROM ci_job_artifacts WHERE job_id = $1 RETURNING ${COLUMNS}`, [jobId]);
      return rows.map(toRow);
    },
    /** Removes up to `limit` expired rows and returns them (their objects are deleted next). */
    async takeExpired(limit = 500): Promise<JobArtifactRow[]> {
      const { rows } = await db.query<JobArtifactRow>(
        `DELETE FROM ci_job_artifacts WHERE id IN (SELECT id FROM ci_job_artifacts WHERE expire_at < now() ORDER BY expire_at LIMIT $1) RETURNING ${COLUMNS}`,
        [limit],
      );
      return rows.map(toRow);
    },
  };
}

export type JobArtifactsRepository = ReturnType<typeof createJobArtifactsRepository>;
