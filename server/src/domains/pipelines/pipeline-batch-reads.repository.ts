import { on, type Queryable } from '../../platform/db/database.js';
import { JOB_SELECT } from './job-select.sql.js';
import type { JobRow, PipelineRow, StageRow } from './pipeline.js';

/** Reads of many pipelines at once, for GraphQL's per-request batches and the lists. */
export function createPipelineBatchReads(db: Queryable) {
  return {
    async pipelinesByIds(ids: readonly number[], tx?: Queryable): Promise<Map<number, PipelineRow>> {
      if (ids.length === 0) return new Map();
      const { rows } = await on(db, tx).query<PipelineRow>('SELECT * FROM ci_pipelines WHERE id = ANY($1::bigint[])', [[...new Set(ids)]]);
      return new Map(rows.map((row) => [row.id, row]));
    },

    /** Several jobs by id (those that exist), in one query. */
    async jobsByIds(ids: readonly number[], tx?: Queryable): Promise<Map<number, JobRow>> {
      if (ids.length === 0) return new Map();
      const { rows } = await on(db, tx).query<JobRow>(`${JOB_SELECT} WHERE b.id = ANY($1::bigint[])`, [[...new Set(ids)]]);
      return new Map(rows.map((row) => [Number(row.id), row]));
    },

    /** The stages of several pipelines, in stage order (GraphQL's per-request batches). */
    async stagesOfPipelines(pipelineIds: readonly number[]): Promise<StageRow[]> {
      if (pipelineIds.length === 0) return [];
      const { rows } = await db.query<StageRow>('SELECT id, pipeline_id, name, position, status FROM ci_stages WHERE pipeline_id = ANY($1::bigint[]) ORDER BY pipeline_id, position', [[...pipelineIds]]);
      return rows;
    },

    /** The jobs of several pipelines that are not replaced by a retry, in stage order (GraphQL's per-request batches). */
    async latestJobsOfPipelines(pipelineIds: readonly number[]): Promise<JobRow[]> {
      if (pipelineIds.length === 0) return [];
      const { rows } = await db.query<JobRow>(`${JOB_SELECT} WHERE b.pipeline_id = ANY($1::bigint[]) AND NOT b.retried ORDER BY b.pipeline_id, b.stage_idx, b.id`, [[...pipelineIds]]);
      return rows;
    },

    /** Which of these pipelines have a job that failed but was allowed to (GitLab's warnings). */
    async withWarnings(pipelineIds: readonly number[], tx?: Queryable): Promise<Set<number>> {
      if (pipelineIds.length === 0) return new Set();
      const { rows } = await on(db, tx).query<{ pipeline_id: number }>(
        `SELECT DISTINCT pipeline_id FROM ci_builds WHERE pipeline_id = ANY($1::bigint[]) AND NOT retried AND allow_failure AND status IN ('failed', 'canceled')`,
        [[...new Set(pipelineIds)]],
      );
      return new Set(rows.map((row) => Number(row.pipeline_id)));
    },
  };
}
