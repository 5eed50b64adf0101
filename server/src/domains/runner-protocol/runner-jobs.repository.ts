import { on, type Database, type Queryable } from '../../platform/db/database.js';

/** A pending job with what `canPick` needs to decide whether a runner may take it. */
export interface PendingCandidate {
  id: number;
  project_id: number;
  tags: string[];
  ref: string;
  tag: boolean;
  namespace_kind: 'user' | 'group';
  traversal_ids: number[];
}

/** What the job payload needs beyond the job row: its pipeline's and project's facts. */
export interface JobContext {
  pipeline_iid: number;
  pipeline_source: string;
  ref: string;
  tag: boolean;
  sha: string;
  before_sha: string;
  pipeline_created_at: Date;
  pipeline_user_id: number | null;
  project_name: string;
  project_path: string;
  project_full_path: string;
  project_visibility: string;
  default_branch: string;
  namespace_id: number;
  root_namespace_id: number;
  /** a merge request pipeline's CI_MERGE_REQUEST_* variables (empty for other pipelines) */
  merge_request_variables: { key: string; value: string }[];
  /** a merge request pipeline of a merge request from a fork: no protected variables, as GitLab */
  from_fork: boolean;
}

/** A running job as the stuck-jobs sweep sees it. */
export interface RunningJob {
  id: number;
  runner_id: number | null;
  runner_exists: boolean;
  updated_at: Date;
  started_at: Date | null;
  timeout_seconds: number;
}

const toNumberArray = (values: unknown): number[] => (Array.isArray(values) ? values.map(Number) : []);

/** The SQL of the runner protocol: the queue of pending jobs, claims, and the job token lookup. */
export function createRunnerJobsRepository(db: Pick<Database, 'query' | 'transaction'>) {
  return {
    /** The oldest pending jobs nobody has claimed, with what `canPick` needs. */
    async pendingCandidates(limit = 200): Promise<PendingCandidate[]> {
      const { rows } = await db.query<PendingCandidate>(
        `SELECT b.id, b.project_id, b.tags, p.ref, p.tag, n.kind AS namespace_kind, n.traversal_ids
           FROM ci_builds b
           JOIN ci_pipelines p ON p.id = b.pipeline_id
           JOIN projects pr ON pr.id = b.project_id
           JOIN namespaces n ON n.id = pr.namespace_id
          WHERE b.status = 'pending' AND b.type = 'build' AND b.runner_id IS NULL AND NOT b.retried
          ORDER BY b.id
          LIMIT $1`,
        [limit],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id), project_id: Number(row.project_id), traversal_ids: toNumberArray(row.traversal_ids) }));
    },

    /**
     * Claims the oldest of `jobIds` still pending and unclaimed for a runner, in one statement:
     * `FOR UPDATE SKIP LOCKED` skips the rows another request is claiming (instead of waiting for
     * them) and the claim sets `runner_id`, after which the job is invisible to every other
     * request in every process. So a job is handed to exactly one runner; the engine then
     * starts it. Null when all of them were taken.
     */
    async claimOne(runnerId: number, jobIds: readonly number[]): Promise<number | null> {
      if (jobIds.length === 0) return null;
      const { rows } = await db.query<{ id: number }>(
        `UPDATE ci_builds SET runner_id = $1, updated_at = now()
          WHERE id = (SELECT id FROM ci_builds
                       WHERE id = ANY($2::bigint[]) AND status = 'pending' AND runner_id IS NULL AND NOT retried
                       ORDER BY id LIMIT 1
                       FOR UPDATE SKIP LOCKED)
            AND runner_id IS NULL
        RETURNING id`,
        [runnerId, jobIds],
      );
      return rows[0] ? Number(rows[0].id) : null;
    },

    /** Gives a claimed job back to the queue (the engine refused to start it, or it was never started). */
    async releaseClaim(jobId: number, runnerId: number): Promise<void> {
      await db.query(`UPDATE ci_builds SET runner_id = NULL, updated_at = now() WHERE id = $1 AND runner_id = $2 AND status = 'pending'`, [jobId, runnerId]);
    },

    /** Claims a crash left behind: pending jobs claimed longer than `seconds` ago go back to the queue. */
    async releaseStaleClaims(seconds: number): Promise<number> {
      const { rowCount } = await db.query(
        `UPDATE ci_builds SET runner_id = NULL, updated_at = now()
          WHERE status = 'pending' AND runner_id IS NOT NULL AND updated_at < now() - make_interval(secs => $1)`,
        [seconds],
      );
      return rowCount;
    },

    /** The runner reported on the job: the stuck-jobs sweep measures silence from here. */
    async touch(jobId: number, tx?: Queryable): Promise<void> {
      await on(db, tx).query('UPDATE ci_builds SET updated_at = now() WHERE id = $1', [jobId]);
    },

    async jobContext(jobId: number): Promise<JobContext | null> {
      const { rows } = await db.query<JobContext>(
        `SELECT p.iid AS pipeline_iid, p.source AS pipeline_source, p.ref, p.tag, p.sha, p.before_sha, p.created_at AS pipeline_created_at,
                p.user_id AS pipeline_user_id, pr.name AS project_name, pr.path AS project_path, r.path AS project_full_path,
                pr.visibility AS project_visibility, pr.default_branch, pr.namespace_id, n.traversal_ids[1] AS root_namespace_id,
                p.merge_request_variables,
                EXISTS (SELECT 1 FROM merge_requests m WHERE m.id = p.merge_request_id AND m.source_project_id IS DISTINCT FROM m.target_project_id) AS from_fork
           FROM ci_builds b
           JOIN ci_pipelines p ON p.id = b.pipeline_id
           JOIN projects pr ON pr.id = b.project_id
           JOIN namespaces n ON n.id = pr.namespace_id
           JOIN routes r ON r.source_type = 'project' AND r.source_id = pr.id
          WHERE b.id = $1`,
        [jobId],
      );
      const row = rows[0];
      if (!row) return null;
      return { ...row, namespace_id: Number(row.namespace_id), root_namespace_id: Number(row.root_namespace_id ?? row.namespace_id), pipeline_user_id: row.pipeline_user_id === null ? null : Number(row.pipeline_user_id) };
    },

    /** Jobs of the pipeline that ran before `stageIdx` and finished with success (artifact dependencies). */
    async earlierJobs(pipelineId: number, stageIdx: number): Promise<{ id: number; name: string; status: string; token_hash: string | null }[]> {
      const { rows } = await db.query<{ id: number; name: string; status: string; token_hash: string | null }>(
        `SELECT id, name, status, token_hash FROM ci_builds WHERE pipeline_id = $1 AND stage_idx < $2 AND type = 'build' AND NOT retried ORDER BY stage_idx, id`,
        [pipelineId, stageIdx],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },

    /**
     * `needs: pipeline:` — the latest successful job named `jobName` of pipeline `ancestorId`, when
     * that pipeline is an ancestor of `pipelineId` through parent-child links (a child pipeline
     * reads its parent's artifacts, GitLab's cross-pipeline dependencies; any other pipeline is
     * out of reach). UNION stops at a pipeline already seen.
     */
    async ancestorPipelineJob(pipelineId: number, ancestorId: number, jobName: string): Promise<{ id: number; name: string } | null> {
      const { rows } = await db.query<{ id: number; name: string }>(
        `WITH RECURSIVE ancestors(id) AS (
           SELECT s.source_pipeline_id FROM ci_sources_pipelines s JOIN ci_pipelines p ON p.id = s.pipeline_id
            WHERE s.pipeline_id = $1 AND p.source = 'parent_pipeline'
           UNION
           SELECT s.source_pipeline_id FROM ci_sources_pipelines s JOIN ci_pipelines p ON p.id = s.pipeline_id JOIN ancestors a ON s.pipeline_id = a.id
            WHERE p.source = 'parent_pipeline'
         )
         SELECT b.id, b.name FROM ci_builds b
          WHERE b.pipeline_id = $2 AND b.pipeline_id IN (SELECT id FROM ancestors) AND b.name = $3 AND b.type = 'build' AND b.status = 'success' AND NOT b.retried
          ORDER BY b.id DESC LIMIT 1`,
        [pipelineId, ancestorId, jobName],
      );
      return rows[0] ? { id: Number(rows[0].id), name: rows[0].name } : null;
    },

    /** Marks a finished job erased (its log and artifacts are gone): GitLab's erased_at. */
    async markErased(jobId: number): Promise<void> {
      await db.query(`UPDATE ci_builds SET erased_at = now(), updated_at = now() WHERE id = $1`, [jobId]);
    },

    /**
     * `needs: project:` — the latest successful job named `jobName` of a pipeline on `ref` of
     * project `projectId` (GitLab's cross-project dependency: the newest such job, whichever
     * pipeline it ran in).
     */
    async latestSuccessfulJob(projectId: number, ref: string, jobName: string): Promise<{ id: number; name: string } | null> {
      const { rows } = await db.query<{ id: number; name: string }>(
        `SELECT b.id, b.name FROM ci_builds b JOIN ci_pipelines p ON p.id = b.pipeline_id
          WHERE b.project_id = $1 AND p.ref = $2 AND b.name = $3 AND b.type = 'build' AND b.status = 'success' AND NOT b.retried
          ORDER BY b.id DESC LIMIT 1`,
        [projectId, ref, jobName],
      );
      return rows[0] ? { id: Number(rows[0].id), name: rows[0].name } : null;
    },

    /** Running and canceling jobs not updated for `seconds`, with whether their runner still exists. */
    async silentRunningJobs(seconds: number): Promise<RunningJob[]> {
      const { rows } = await db.query<RunningJob & { timeout: unknown }>(
        `SELECT b.id, b.runner_id, (r.id IS NOT NULL) AS runner_exists, b.updated_at, b.started_at, 0 AS timeout_seconds
           FROM ci_builds b LEFT JOIN ci_runners r ON r.id = b.runner_id
          WHERE b.status IN ('running', 'canceling') AND b.type = 'build' AND (b.updated_at < now() - make_interval(secs => $1) OR r.id IS NULL)
          ORDER BY b.id LIMIT 500`,
        [seconds],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id), runner_id: row.runner_id === null ? null : Number(row.runner_id) }));
    },
  };
}

export type RunnerJobsRepository = ReturnType<typeof createRunnerJobsRepository>;
