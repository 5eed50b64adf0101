/** The SQL of commit statuses: generic jobs in the `external` stage of their commit's pipelines. */
import { on, type Queryable } from '../../platform/db/database.js';
import type { JobRow, PipelineRow } from '../pipelines/pipeline.js';

/** GitLab's GenericCommitStatus::EXTERNAL_STAGE_IDX: the external stage comes after every other. */
export const EXTERNAL_STAGE_IDX = 1_000_000;

export interface StatusListFilter {
  projectId: number;
  sha: string;
  ref?: string;
  stage?: string;
  name?: string;
  pipelineId?: number;
  all: boolean;
  orderBy: 'id' | 'pipeline_id';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export function createCommitStatusesRepository(db: Queryable) {
  return {
    /** The newest pipeline of the commit (of `ref`, and with id `pipelineId`, when given): GitLab's first_matching_pipeline. */
    async firstMatchingPipeline(projectId: number, sha: string, filter: { ref?: string; pipelineId?: number }, tx?: Queryable): Promise<PipelineRow | null> {
      const { rows } = await on(db, tx).query<PipelineRow>(
        `SELECT * FROM ci_pipelines WHERE project_id = $1 AND sha = $2 AND ($3::text IS NULL OR ref = $3) AND ($4::bigint IS NULL OR id = $4)
          ORDER BY id DESC LIMIT 1`,
        [projectId, sha, filter.ref ?? null, filter.pipelineId ?? null],
      );
      return rows[0] ?? null;
    },

    /** The pipeline's `external` stage, created at EXTERNAL_STAGE_IDX when missing. */
    async externalStage(pipelineId: number, projectId: number, tx: Queryable): Promise<number> {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO ci_stages (pipeline_id, project_id, name, position) VALUES ($1, $2, 'external', $3)
         ON CONFLICT (pipeline_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
        [pipelineId, projectId, EXTERNAL_STAGE_IDX],
      );
      return Number(rows[0]!.id);
    },

    /** The pending or running status of this name, posted by this user, in the pipeline (GitLab's running_or_pending scope). */
    async openStatus(pipelineId: number, name: string, userId: number, tx: Queryable): Promise<JobRow | null> {
      const { rows } = await tx.query<JobRow>(
        `SELECT b.*, '[]'::json AS needs FROM ci_builds b
          WHERE b.pipeline_id = $1 AND b.type = 'generic' AND b.name = $2 AND b.user_id = $3 AND b.status IN ('pending', 'running') AND NOT b.retried
          ORDER BY b.id DESC LIMIT 1 FOR UPDATE`,
        [pipelineId, name, userId],
      );
      return rows[0] ?? null;
    },

    /**
     * A new generic job; the older statuses and jobs of the same name and stage become `retried`
     * (GitLab's AddJobService), so the latest one is the one that counts.
     */
    async insertStatus(input: { pipelineId: number; projectId: number; stageId: number; name: string; userId: number }, tx: Queryable): Promise<number> {
      await tx.query(`UPDATE ci_builds SET retried = true, updated_at = now() WHERE pipeline_id = $1 AND name = $2 AND stage = 'external' AND NOT retried`, [input.pipelineId, input.name]);
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO ci_builds (project_id, pipeline_id, stage_id, type, name, stage, stage_idx, user_id)
         VALUES ($1, $2, $3, 'generic', $4, 'external', $5, $6) RETURNING id`,
        [input.projectId, input.pipelineId, input.stageId, input.name, EXTERNAL_STAGE_IDX, input.userId],
      );
      return Number(rows[0]!.id);
    },

    /** target_url, description and coverage as posted (only those given change). */
    async updateDetails(jobId: number, details: { target_url?: string; description?: string; coverage?: number }, tx: Queryable): Promise<void> {
      const entries = (['target_url', 'description', 'coverage'] as const).filter((key) => details[key] !== undefined);
      if (entries.length === 0) return;
      await tx.query(`UPDATE ci_builds SET ${entries.map((key, i) => `${key} = $${i + 2}`).join(', ')} WHERE id = $1`, [jobId, ...entries.map((key) => details[key])]);
    },

    /** Statuses (every job of the commit's pipelines, as GitLab's CommitStatus) with the refs of their pipelines. */
    async list(filter: StatusListFilter): Promise<{ rows: (JobRow & { ref: string; sha: string })[]; total: number }> {
      const params: unknown[] = [filter.projectId, filter.sha];
      const where = ['p.project_id = $1', 'p.sha = $2'];
      const add = (clause: (n: number) => string, value: unknown) => {
        params.push(value);
        where.push(clause(params.length));
      };
      if (filter.ref) add((n) => `p.ref = $${n}`, filter.ref);
      if (filter.stage) add((n) => `b.stage = $${n}`, filter.stage);
      if (filter.name) add((n) => `b.name = $${n}`, filter.name);
      if (filter.pipelineId !== undefined) add((n) => `p.id = $${n}`, filter.pipelineId);
      if (!filter.all) where.push('NOT b.retried');
      const clause = where.join(' AND ');
      const order = `${filter.orderBy === 'pipeline_id' ? 'b.pipeline_id' : 'b.id'} ${filter.sort === 'desc' ? 'DESC' : 'ASC'}, b.id ${filter.sort === 'desc' ? 'DESC' : 'ASC'}`;
      const [page, count] = await Promise.all([
        db.query<JobRow & { ref: string; sha: string }>(
          `SELECT b.*, '[]'::json AS needs, p.ref, p.sha FROM ci_builds b JOIN ci_pipelines p ON p.id = b.pipeline_id WHERE ${clause} ORDER BY ${order} LIMIT ${filter.limit} OFFSET ${filter.offset}`,
          params,
        ),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ci_builds b JOIN ci_pipelines p ON p.id = b.pipeline_id WHERE ${clause}`, params),
      ]);
      return { rows: page.rows, total: count.rows[0]!.count };
    },
  };
}

export type CommitStatusesRepository = ReturnType<typeof createCommitStatusesRepository>;
