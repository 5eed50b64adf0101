import type { Queryable } from '../../platform/db/database.js';
import type { Status } from './engine/status.js';
import { JOB_SELECT } from './job-select.sql.js';
import type { JobRow, PipelineRow } from './pipeline.js';

export interface PipelineListFilter {
  projectId: number;
  scope?: 'running' | 'pending' | 'finished' | 'branches' | 'tags';
  status?: Status;
  ref?: string;
  sha?: string;
  source?: string;
  username?: string;
  name?: string;
  yamlErrors?: boolean;
  updatedAfter?: Date;
  updatedBefore?: Date;
  /** the pipelines one schedule created */
  pipelineScheduleId?: number;
  orderBy: 'id' | 'status' | 'ref' | 'updated_at' | 'user_id';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface JobListFilter {
  projectId: number;
  pipelineId?: number;
  type?: 'build' | 'bridge';
  scope?: Status[];
  includeRetried?: boolean;
  limit: number;
  offset: number;
}

/** The filtered, paginated lists of a project's pipelines and jobs. */
export function createPipelineLists(db: Queryable) {
  return {
    async listPipelines(filter: PipelineListFilter): Promise<{ pipelines: PipelineRow[]; total: number }> {
      const params: unknown[] = [filter.projectId];
      const where = ['c.project_id = $1'];
      const add = (sql: (n: string) => string, value: unknown) => {
        params.push(value);
        where.push(sql(`$${params.length}`));
      };
      if (filter.scope === 'running') where.push(`c.status = 'running'`);
      if (filter.scope === 'pending') where.push(`c.status = 'pending'`);
      if (filter.scope === 'finished') where.push(`c.status IN ('success', 'failed', 'canceled', 'skipped')`);
      // GitLab lists no child pipeline unless asked for source parent_pipeline (PipelinesFinder's no_child)
      const noChild = filter.source !== 'parent_pipeline' && filter.pipelineScheduleId === undefined;
      if (noChild) where.push(`c.source <> 'parent_pipeline'`);
      if (filter.scope === 'branches' || filter.scope === 'tags') {
        // the newest pipeline of each branch (or tag), as GitLab's scope does
        where.push(`c.tag = ${filter.scope === 'tags'} AND c.id IN (SELECT max(id) FROM ci_pipelines WHERE project_id = $1${noChild ? ` AND source <> 'parent_pipeline'` : ''} GROUP BY ref, tag)`);
      }
      if (filter.status) add((n) => `c.status = ${n}`, filter.status);
      if (filter.ref !== undefined) add((n) => `c.ref = ${n}`, filter.ref);
      if (filter.sha !== undefined) add((n) => `c.sha = ${n}`, filter.sha);
      if (filter.source !== undefined) add((n) => `c.source = ${n}`, filter.source);
      if (filter.name !== undefined) add((n) => `c.name = ${n}`, filter.name);
      if (filter.username !== undefined) add((n) => `c.user_id = (SELECT id FROM users WHERE lower(username) = lower(${n}))`, filter.username);
      if (filter.yamlErrors !== undefined) where.push(filter.yamlErrors ? 'c.yaml_errors IS NOT NULL' : 'c.yaml_errors IS NULL');
      if (filter.updatedAfter) add((n) => `c.updated_at > ${n}`, filter.updatedAfter);
      if (filter.updatedBefore) add((n) => `c.updated_at < ${n}`, filter.updatedBefore);
      if (filter.pipelineScheduleId !== undefined) add((n) => `c.pipeline_schedule_id = ${n}`, filter.pipelineScheduleId);
      const clause = where.join(' AND ');
      const direction = filter.sort === 'asc' ? 'ASC' : 'DESC';
      const order = filter.orderBy === 'id' ? `c.id ${direction}` : `c.${filter.orderBy} ${direction}, c.id ${direction}`;
      const [page, count] = await Promise.all([
        db.query<PipelineRow>(`SELECT c.* FROM ci_pipelines c WHERE ${clause} ORDER BY ${order} LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ci_pipelines c WHERE ${clause}`, params),
      ]);
      return { pipelines: page.rows, total: count.rows[0]!.count };
    },

    /** Jobs newest first (GitLab's order), one page and one more to tell whether a next page exists. */
    async listJobs(filter: JobListFilter): Promise<{ jobs: JobRow[]; total: number }> {
      const params: unknown[] = [filter.projectId];
      const where = ['b.project_id = $1'];
      if (filter.pipelineId !== undefined) {
        params.push(filter.pipelineId);
        where.push(`b.pipeline_id = $${params.length}`);
      }
      if (filter.type) {
        params.push(filter.type);
        where.push(`b.type = $${params.length}`);
      }
      if (filter.scope && filter.scope.length > 0) {
        params.push(filter.scope);
        where.push(`b.status = ANY($${params.length}::text[])`);
      }
      if (!filter.includeRetried) where.push('NOT b.retried');
      const clause = where.join(' AND ');
      const [page, count] = await Promise.all([
        db.query<JobRow>(`${JOB_SELECT} WHERE ${clause} ORDER BY b.id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ci_builds b WHERE ${clause}`, params),
      ]);
      return { jobs: page.rows, total: count.rows[0]!.count };
    },
  };
}
