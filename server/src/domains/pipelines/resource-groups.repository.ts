/**
 * All SQL of resource groups (GitLab's Ci::ResourceGroup): one resource per group, held by at most
 * one job. A job takes it by compare-and-swap (`WHERE holder_job_id IS NULL`) and gives it back in
 * the transaction that completes it.
 */
import { on, type Queryable } from '../../platform/db/database.js';
import type { JobRow } from './pipeline.js';

export const PROCESS_MODES = ['unordered', 'oldest_first', 'newest_first'] as const;
export type ProcessMode = (typeof PROCESS_MODES)[number];

export interface ResourceGroupRow {
  id: number;
  project_id: number;
  key: string;
  process_mode: ProcessMode;
  holder_job_id: number | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * The order in which waiting jobs get the resource (GitLab's process modes): `unordered` and
 * `oldest_first` hand it to the oldest pipeline's job first, `newest_first` to the newest's.
 */
export function waitingOrder(mode: ProcessMode): string {
  return mode === 'newest_first' ? 'b.pipeline_id DESC, b.id ASC' : 'b.pipeline_id ASC, b.id ASC';
}

export function createResourceGroupsRepository(db: Queryable) {
  async function find(projectId: number, key: string, tx?: Queryable): Promise<ResourceGroupRow | null> {
    const { rows } = await on(db, tx).query<ResourceGroupRow>('SELECT * FROM ci_resource_groups WHERE project_id = $1 AND key = $2', [projectId, key]);
    return rows[0] ?? null;
  }

  return {
    find,

    /** The groups of a new pipeline's jobs exist from its creation on (GitLab creates them while seeding jobs). */
    async ensure(projectId: number, keys: readonly string[], tx?: Queryable): Promise<void> {
      if (keys.length === 0) return;
      await on(db, tx).query(
        `INSERT INTO ci_resource_groups (project_id, key) SELECT $1, k FROM unnest($2::text[]) AS k ON CONFLICT (project_id, key) DO NOTHING`,
        [projectId, [...new Set(keys)]],
      );
    },

    async list(projectId: number, limit: number, offset: number): Promise<{ groups: ResourceGroupRow[]; total: number }> {
      const [page, count] = await Promise.all([
        db.query<ResourceGroupRow>(`SELECT * FROM ci_resource_groups WHERE project_id = $1 ORDER BY id LIMIT ${limit} OFFSET ${offset}`, [projectId]),
        db.query<{ count: number }>('SELECT count(*)::int AS count FROM ci_resource_groups WHERE project_id = $1', [projectId]),
      ]);
      return { groups: page.rows, total: count.rows[0]!.count };
    },

    async updateProcessMode(id: number, mode: ProcessMode): Promise<ResourceGroupRow> {
      const { rows } = await db.query<ResourceGroupRow>('UPDATE ci_resource_groups SET process_mode = $2, updated_at = now() WHERE id = $1 RETURNING *', [id, mode]);
      return rows[0]!;
    },

    /** Takes the group's resource for `jobId` when nobody holds it; false when another job does. */
    async take(projectId: number, key: string, jobId: number, tx: Queryable): Promise<boolean> {
      const { rowCount } = await tx.query(
        'UPDATE ci_resource_groups SET holder_job_id = $3, updated_at = now() WHERE project_id = $1 AND key = $2 AND (holder_job_id IS NULL OR holder_job_id = $3)',
        [projectId, key, jobId],
      );
      return (rowCount ?? 0) > 0;
    },

    /** Gives back the resource `jobId` holds; the group, or null when it held none. */
    async release(jobId: number, tx: Queryable): Promise<ResourceGroupRow | null> {
      const { rows } = await tx.query<ResourceGroupRow>('UPDATE ci_resource_groups SET holder_job_id = NULL, updated_at = now() WHERE holder_job_id = $1 RETURNING *', [jobId]);
      return rows[0] ?? null;
    },

    /** The jobs waiting for the group, in the order its process mode hands out the resource. */
    async waitingJobs(group: Pick<ResourceGroupRow, 'project_id' | 'key' | 'process_mode'>, limit = 100, tx?: Queryable): Promise<Pick<JobRow, 'id' | 'pipeline_id'>[]> {
      const { rows } = await on(db, tx).query<Pick<JobRow, 'id' | 'pipeline_id'>>(
        `SELECT b.id, b.pipeline_id FROM ci_builds b WHERE b.project_id = $1 AND b.resource_group_key = $2 AND b.status = 'waiting_for_resource' AND NOT b.retried
          ORDER BY ${waitingOrder(group.process_mode)} LIMIT ${limit}`,
        [group.project_id, group.key],
      );
      return rows.map((row) => ({ id: Number(row.id), pipeline_id: Number(row.pipeline_id) }));
    },
  };
}

export type ResourceGroupsRepository = ReturnType<typeof createResourceGroupsRepository>;
