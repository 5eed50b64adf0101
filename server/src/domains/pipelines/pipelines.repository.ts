import { on, type Queryable } from '../../platform/db/database.js';
import type { PlannedJob } from './config/types.js';
import type { Status } from './engine/status.js';
import { JOB_SELECT } from './job-select.sql.js';
import { createMergeRequestPipelinesRepository } from './merge-request-pipelines.repository.js';
import type { JobRow, PipelineRow, PipelineVariable, StageRow } from './pipeline.js';
import { createPipelineBatchReads } from './pipeline-batch-reads.repository.js';
import { createPipelineLists } from './pipeline-lists.repository.js';

export type { MergeRequestPipelineSubject } from './merge-request-pipelines.repository.js';
export type { JobListFilter, PipelineListFilter } from './pipeline-lists.repository.js';

export interface NewPipeline {
  projectId: number;
  sha: string;
  beforeSha: string;
  ref: string;
  tag: boolean;
  source: string;
  status: Status;
  userId: number | null;
  name?: string | null;
  yamlErrors?: string | null;
  failureReason?: string | null;
  committedAt?: Date | null;
  /** the pipeline schedule that created it */
  pipelineScheduleId?: number | null;
  /** a merge request pipeline: its merge request, the head and target it merged (merged results), its CI_MERGE_REQUEST_* variables */
  mergeRequest?: { id: number; sourceSha: string | null; targetSha: string | null; variables: readonly { key: string; value: string }[] } | null;
}

/** Columns a transition may set beside the status. */
export type JobChanges = Partial<
  Pick<JobRow, 'failure_reason' | 'exit_code' | 'runner_id' | 'token_hash' | 'scheduled_at' | 'queued_at' | 'started_at' | 'finished_at' | 'user_id' | 'coverage' | 'allow_failure'>
> & { job_variables?: { key: string; value: string }[] };

const JOB_CHANGE_COLUMNS = ['failure_reason', 'exit_code', 'runner_id', 'token_hash', 'scheduled_at', 'queued_at', 'started_at', 'finished_at', 'user_id', 'coverage', 'allow_failure', 'job_variables'] as const;

/**
 * All SQL of pipelines, stages, jobs and their variables: the writes and single reads here, the
 * batch reads, the lists and the merge request reads in their own modules, composed into one.
 */
export function createPipelinesRepository(db: Queryable) {
  async function findJob(jobId: number, tx?: Queryable): Promise<JobRow | null> {
    const { rows } = await on(db, tx).query<JobRow>(`${JOB_SELECT} WHERE b.id = $1`, [jobId]);
    return rows[0] ?? null;
  }

  return {
    ...createPipelineBatchReads(db),
    ...createPipelineLists(db),
    ...createMergeRequestPipelinesRepository(db),

    async insertPipeline(input: NewPipeline, tx?: Queryable): Promise<PipelineRow> {
      const q = on(db, tx);
      const { rows: iid } = await q.query<{ last_iid: number }>(
        `INSERT INTO ci_pipeline_iids (project_id, last_iid) VALUES ($1, 1)
         ON CONFLICT (project_id) DO UPDATE SET last_iid = ci_pipeline_iids.last_iid + 1 RETURNING last_iid`,
        [input.projectId],
      );
      const finished = input.status === 'failed' || input.status === 'skipped';
      const { rows } = await q.query<PipelineRow>(
        `INSERT INTO ci_pipelines (project_id, iid, sha, before_sha, ref, tag, source, status, user_id, name, yaml_errors, failure_reason, committed_at, finished_at, pipeline_schedule_id,
           merge_request_id, source_sha, target_sha, merge_request_variables)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, CASE WHEN $14::boolean THEN now() END, $15, $16, $17, $18, $19::jsonb) RETURNING *`,
        [
          input.projectId, iid[0]!.last_iid, input.sha, input.beforeSha, input.ref, input.tag, input.source, input.status, input.userId, input.name ?? null, input.yamlErrors ?? null,
          input.failureReason ?? null, input.committedAt ?? null, finished, input.pipelineScheduleId ?? null,
          input.mergeRequest?.id ?? null, input.mergeRequest?.sourceSha ?? null, input.mergeRequest?.targetSha ?? null, JSON.stringify(input.mergeRequest?.variables ?? []),
        ],
      );
      return rows[0]!;
    },

    async insertStages(pipelineId: number, projectId: number, names: readonly string[], tx?: Queryable): Promise<Map<string, number>> {
      const { rows } = await on(db, tx).query<{ id: number; name: string }>(
        `INSERT INTO ci_stages (pipeline_id, project_id, name, position)
         SELECT $1, $2, name, position::int - 1 FROM unnest($3::text[]) WITH ORDINALITY AS s(name, position) RETURNING id, name`,
        [pipelineId, projectId, names],
      );
      return new Map(rows.map((row) => [row.name, row.id]));
    },

    /**
     * Every job of a new pipeline in two statements (the jobs, then their needs), whatever their
     * number: a 500-job pipeline is two round trips, not a thousand. Answers each job's id by name
     * (names are unique in a plan).
     */
    async insertJobs(pipeline: Pick<PipelineRow, 'id' | 'project_id' | 'user_id'>, stageIds: ReadonlyMap<string, number>, jobs: readonly PlannedJob[], tx?: Queryable): Promise<Map<string, number>> {
      if (jobs.length === 0) return new Map();
      const q = on(db, tx);
      const rows = jobs.map((job) => ({
        stage_id: stageIds.get(job.stage)!,
        type: job.kind,
        name: job.name,
        stage: job.stage,
        stage_idx: job.stageIdx,
        when: job.when,
        start_in: job.startIn ?? null,
        allow_failure: job.allowFailure,
        allow_failure_exit_codes: job.allowFailureExitCodes ?? null,
        scheduling_type: job.needs === null ? 'stage' : 'dag',
        options: job.options,
        yaml_variables: job.yamlVariables,
        tags: job.tags,
        coverage_regex: job.coverageRegex ?? null,
        interruptible: job.interruptible ?? null,
        resource_group_key: job.resourceGroupKey ?? null,
        environment: job.environmentName ?? null,
      }));
      const { rows: inserted } = await q.query<{ id: number; name: string }>(
        `INSERT INTO ci_builds (project_id, pipeline_id, stage_id, type, name, stage, stage_idx, "when", start_in, allow_failure, allow_failure_exit_codes,
           scheduling_type, options, yaml_variables, tags, coverage_regex, interruptible, resource_group_key, environment, user_id)
         SELECT $1, $2, (j->>'stage_id')::bigint, j->>'type', j->>'name', j->>'stage', (j->>'stage_idx')::integer, j->>'when', j->>'start_in',
                (j->>'allow_failure')::boolean,
                CASE WHEN jsonb_typeof(j->'allow_failure_exit_codes') = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(j->'allow_failure_exit_codes')::integer) END,
                j->>'scheduling_type', j->'options', j->'yaml_variables', ARRAY(SELECT jsonb_array_elements_text(j->'tags')), j->>'coverage_regex',
                (j->>'interruptible')::boolean, j->>'resource_group_key', j->>'environment', $3
           FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS t(j, n) ORDER BY n
         RETURNING id, name`,
        [pipeline.project_id, pipeline.id, pipeline.user_id, JSON.stringify(rows)],
      );
      const ids = new Map(inserted.map((row) => [row.name, Number(row.id)]));
      const needs = jobs.flatMap((job) => (job.needs ?? []).map((need) => ({ build_id: ids.get(job.name)!, ...need })));
      if (needs.length > 0) {
        await q.query(
          `INSERT INTO ci_build_needs (build_id, name, artifacts, optional)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::boolean[], $4::boolean[])`,
          [needs.map((n) => n.build_id), needs.map((n) => n.name), needs.map((n) => n.artifacts), needs.map((n) => n.optional)],
        );
      }
      return ids;
    },

    async insertVariables(pipelineId: number, variables: readonly PipelineVariable[], tx?: Queryable): Promise<void> {
      if (variables.length === 0) return;
      await on(db, tx).query(
        `INSERT INTO ci_pipeline_variables (pipeline_id, key, value, variable_type)
         SELECT $1, key, value, variable_type FROM unnest($2::text[], $3::text[], $4::text[]) AS v(key, value, variable_type)`,
        [pipelineId, variables.map((v) => v.key), variables.map((v) => v.value), variables.map((v) => v.variable_type)],
      );
    },

    async variables(pipelineId: number, tx?: Queryable): Promise<(PipelineVariable & { id: number })[]> {
      const { rows } = await on(db, tx).query<PipelineVariable & { id: number }>('SELECT id, key, value, variable_type FROM ci_pipeline_variables WHERE pipeline_id = $1 ORDER BY id', [pipelineId]);
      return rows;
    },

    /** The pipeline row, locked until the transaction ends: one processing of a pipeline at a time. */
    async lockPipeline(pipelineId: number, tx: Queryable): Promise<PipelineRow | null> {
      const { rows } = await tx.query<PipelineRow>('SELECT * FROM ci_pipelines WHERE id = $1 FOR UPDATE', [pipelineId]);
      return rows[0] ?? null;
    },

    async findPipeline(projectId: number, pipelineId: number, tx?: Queryable): Promise<PipelineRow | null> {
      const { rows } = await on(db, tx).query<PipelineRow>('SELECT * FROM ci_pipelines WHERE id = $1 AND project_id = $2', [pipelineId, projectId]);
      return rows[0] ?? null;
    },

    async pipelineById(pipelineId: number, tx?: Queryable): Promise<PipelineRow | null> {
      const { rows } = await on(db, tx).query<PipelineRow>('SELECT * FROM ci_pipelines WHERE id = $1', [pipelineId]);
      return rows[0] ?? null;
    },

    /** The newest pipeline of a ref at a commit (GitLab's `latest` for a ref). */
    async latestForRef(projectId: number, ref: string, sha: string, tx?: Queryable): Promise<PipelineRow | null> {
      const { rows } = await on(db, tx).query<PipelineRow>('SELECT * FROM ci_pipelines WHERE project_id = $1 AND ref = $2 AND sha = $3 ORDER BY id DESC LIMIT 1', [projectId, ref, sha]);
      return rows[0] ?? null;
    },

    /** Was this push (ref moved from `beforeSha` to `sha`) given its pipeline already? For the creation job's retries. */
    async existsForPush(projectId: number, ref: string, tag: boolean, sha: string, beforeSha: string, tx?: Queryable): Promise<boolean> {
      const { rows } = await on(db, tx).query(
        `SELECT 1 FROM ci_pipelines WHERE project_id = $1 AND ref = $2 AND tag = $3 AND sha = $4 AND before_sha = $5 AND source = 'push' LIMIT 1`,
        [projectId, ref, tag, sha, beforeSha],
      );
      return rows.length > 0;
    },

    /**
     * Older pipelines of a ref that a new one may cancel (GitLab's CancelRedundantPipelinesService):
     * still cancelable, created by a push, the web, the API or another CI source within the last 7
     * days, and of another commit than the new pipeline's and the ref's head.
     */
    async redundantPipelines(pipeline: Pick<PipelineRow, 'id' | 'project_id' | 'ref' | 'tag' | 'sha'>, headSha: string, tx?: Queryable): Promise<PipelineRow[]> {
      const { rows } = await on(db, tx).query<PipelineRow>(
        `SELECT * FROM ci_pipelines WHERE project_id = $1 AND ref = $2 AND tag = $3 AND id < $4 AND sha <> $5 AND sha <> $6
           AND status IN ('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled')
           AND source IN ('push', 'web', 'trigger', 'schedule', 'api', 'external', 'pipeline', 'chat', 'merge_request_event', 'external_pull_request_event')
           AND created_at > now() - interval '7 days'
         ORDER BY id`,
        [pipeline.project_id, pipeline.ref, pipeline.tag, pipeline.id, pipeline.sha, headSha],
      );
      return rows;
    },

    async updatePipeline(pipelineId: number, changes: Partial<Pick<PipelineRow, 'status' | 'started_at' | 'finished_at' | 'duration' | 'queued_duration' | 'coverage'>>, tx?: Queryable): Promise<void> {
      const entries = Object.entries(changes);
      if (entries.length === 0) return;
      const sets = entries.map(([column], i) => `${column} = $${i + 2}`);
      await on(db, tx).query(`UPDATE ci_pipelines SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [pipelineId, ...entries.map(([, value]) => value)]);
    },

    async deletePipeline(pipelineId: number, tx?: Queryable): Promise<void> {
      await on(db, tx).query('DELETE FROM ci_pipelines WHERE id = $1', [pipelineId]);
    },

    async stages(pipelineId: number, tx?: Queryable): Promise<StageRow[]> {
      const { rows } = await on(db, tx).query<StageRow>('SELECT id, pipeline_id, name, position, status FROM ci_stages WHERE pipeline_id = $1 ORDER BY position', [pipelineId]);
      return rows;
    },

    async updateStageStatus(stageId: number, status: Status, tx?: Queryable): Promise<void> {
      await on(db, tx).query('UPDATE ci_stages SET status = $2 WHERE id = $1 AND status <> $2', [stageId, status]);
    },

    /** The jobs of a pipeline that are not replaced by a retry, in stage order. */
    async latestJobs(pipelineId: number, tx?: Queryable): Promise<JobRow[]> {
      const { rows } = await on(db, tx).query<JobRow>(`${JOB_SELECT} WHERE b.pipeline_id = $1 AND NOT b.retried ORDER BY b.stage_idx, b.id`, [pipelineId]);
      return rows;
    },

    /** A project's pipeline by iid and/or sha (the newest of the sha), or null. */
    async findPipelineBy(projectId: number, by: { iid?: number; sha?: string }): Promise<PipelineRow | null> {
      const { rows } = await db.query<PipelineRow>(
        'SELECT * FROM ci_pipelines WHERE project_id = $1 AND ($2::int IS NULL OR iid = $2) AND ($3::text IS NULL OR sha = $3) ORDER BY id DESC LIMIT 1',
        [projectId, by.iid ?? null, by.sha ?? null],
      );
      return rows[0] ?? null;
    },

    findJob,

    /**
     * Compare-and-swap: moves the job to `to` only while its status is one of `from`. Null when
     * another process moved it first (the caller lost the race).
     */
    async casJobStatus(jobId: number, from: readonly Status[], to: Status, changes: JobChanges = {}, tx?: Queryable): Promise<JobRow | null> {
      const entries = JOB_CHANGE_COLUMNS.filter((column) => column in changes).map((column) => [column, column === 'job_variables' ? JSON.stringify(changes[column]) : changes[column]] as const);
      const sets = entries.map(([column], i) => `${column} = $${i + 4}`);
      const { rows } = await on(db, tx).query<{ id: number }>(
        `UPDATE ci_builds SET status = $3${sets.map((s) => `, ${s}`).join('')}, updated_at = now()
          WHERE id = $1 AND status = ANY($2::text[]) AND NOT retried RETURNING id`,
        [jobId, from, to, ...entries.map(([, value]) => value)],
      );
      if (!rows[0]) return null;
      return findJob(jobId, tx);
    },

    /**
     * casJobStatus for many jobs with the same change in two statements: those still in one of
     * `from` move to `to`; the moved ones come back (ordered by id).
     */
    async casJobsStatus(jobIds: readonly number[], from: readonly Status[], to: Status, changes: Pick<JobChanges, 'queued_at'> = {}, tx?: Queryable): Promise<JobRow[]> {
      if (jobIds.length === 0) return [];
      const q = on(db, tx);
      const { rows } = await q.query<{ id: number }>(
        `UPDATE ci_builds SET status = $3, queued_at = CASE WHEN $4::timestamptz IS NULL THEN queued_at ELSE $4::timestamptz END, updated_at = now()
          WHERE id = ANY($1::bigint[]) AND status = ANY($2::text[]) AND NOT retried RETURNING id`,
        [jobIds, from, to, changes.queued_at ?? null],
      );
      if (rows.length === 0) return [];
      const { rows: moved } = await q.query<JobRow>(`${JOB_SELECT} WHERE b.id = ANY($1::bigint[]) ORDER BY b.id`, [rows.map((row) => row.id)]);
      return moved;
    },

    /** A copy of the job to run again (GitLab's Ci::Build#clone); the old one becomes `retried`. */
    async cloneJob(jobId: number, userId: number | null, tx: Queryable): Promise<number | null> {
      const { rowCount } = await tx.query('UPDATE ci_builds SET retried = true, updated_at = now() WHERE id = $1 AND NOT retried', [jobId]);
      if (rowCount === 0) return null;
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO ci_builds (project_id, pipeline_id, stage_id, type, name, stage, stage_idx, "when", start_in, allow_failure, allow_failure_exit_codes,
           scheduling_type, options, yaml_variables, job_variables, tags, coverage_regex, interruptible, resource_group_key, environment, user_id)
         SELECT project_id, pipeline_id, stage_id, type, name, stage, stage_idx, "when", start_in, allow_failure, allow_failure_exit_codes,
           scheduling_type, options, yaml_variables, job_variables, tags, coverage_regex, interruptible, resource_group_key, environment, coalesce($2, user_id)
           FROM ci_builds WHERE id = $1 RETURNING id`,
        [jobId, userId],
      );
      const id = rows[0]!.id;
      await tx.query('INSERT INTO ci_build_needs (build_id, name, artifacts, optional) SELECT $2, name, artifacts, optional FROM ci_build_needs WHERE build_id = $1 ORDER BY id', [jobId, id]);
      return id;
    },

    /** How many times jobs of this name were retried in the pipeline (for `retry: max`). */
    async retriedCount(pipelineId: number, name: string, tx?: Queryable): Promise<number> {
      const { rows } = await on(db, tx).query<{ count: number }>('SELECT count(*)::int AS count FROM ci_builds WHERE pipeline_id = $1 AND name = $2 AND retried', [pipelineId, name]);
      return rows[0]!.count;
    },

    /** The job a job token (its hash) belongs to, for the runner protocol's job-token calls. */
    async findJobByTokenHash(tokenHash: string, tx?: Queryable): Promise<JobRow | null> {
      const { rows } = await on(db, tx).query<JobRow>(`${JOB_SELECT} WHERE b.token_hash = $1`, [tokenHash]);
      return rows[0] ?? null;
    },

    /** Pending jobs that runners may pick, oldest first (for the runner protocol). */
    async pendingJobs(limit: number, tx?: Queryable): Promise<JobRow[]> {
      const { rows } = await on(db, tx).query<JobRow>(`${JOB_SELECT} WHERE b.status = 'pending' AND b.type = 'build' ORDER BY b.id LIMIT $1`, [limit]);
      return rows;
    },
  };
}

export type PipelinesRepository = ReturnType<typeof createPipelinesRepository>;
