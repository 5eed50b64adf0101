/** Environments and deployments: all their SQL. */
import { on, type Queryable } from '../../platform/db/database.js';
import { environmentFolder, environmentSlug, guessTier, type DeploymentStatus, type EnvironmentState, type Tier } from './environment-rules.js';
import type { DeploymentRow, EnvironmentRow } from './environment.js';

export interface EnvironmentListFilter {
  projectId: number;
  name?: string;
  search?: string;
  states?: EnvironmentState;
  limit: number;
  offset: number;
}

export interface DeploymentListFilter {
  projectId: number;
  environment?: string;
  status?: DeploymentStatus;
  updatedAfter?: Date;
  updatedBefore?: Date;
  orderBy: 'id' | 'iid' | 'created_at' | 'updated_at' | 'finished_at' | 'ref';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface NewDeployment {
  projectId: number;
  environmentId: number;
  jobId: number | null;
  ref: string;
  tag: boolean;
  sha: string;
  userId: number | null;
  status: DeploymentStatus;
  onStop: string | null;
}

const FINISHED = ['success', 'failed', 'canceled'];

export function createEnvironmentsRepository(db: Queryable) {
  return {
    /** The environment named `name`, created (slug, tier, folder from the name) when missing. */
    async findOrCreate(projectId: number, name: string, attrs: { externalUrl?: string | null; tier?: Tier | null }, tx?: Queryable): Promise<EnvironmentRow> {
      const q = on(db, tx);
      await q.query(
        `INSERT INTO environments (project_id, name, slug, external_url, tier, environment_type)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (project_id, name) DO NOTHING`,
        [projectId, name, environmentSlug(name), attrs.externalUrl ?? null, attrs.tier ?? guessTier(name), environmentFolder(name)],
      );
      const { rows } = await q.query<EnvironmentRow>('SELECT * FROM environments WHERE project_id = $1 AND name = $2', [projectId, name]);
      return rows[0]!;
    },

    async find(projectId: number, id: number, tx?: Queryable): Promise<EnvironmentRow | null> {
      const { rows } = await on(db, tx).query<EnvironmentRow>('SELECT * FROM environments WHERE project_id = $1 AND id = $2', [projectId, id]);
      return rows[0] ?? null;
    },

    async findById(id: number, tx?: Queryable): Promise<EnvironmentRow | null> {
      const { rows } = await on(db, tx).query<EnvironmentRow>('SELECT * FROM environments WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    async findByName(projectId: number, name: string, tx?: Queryable): Promise<EnvironmentRow | null> {
      const { rows } = await on(db, tx).query<EnvironmentRow>('SELECT * FROM environments WHERE project_id = $1 AND name = $2', [projectId, name]);
      return rows[0] ?? null;
    },

    async list(filter: EnvironmentListFilter): Promise<{ environments: EnvironmentRow[]; total: number }> {
      const where = ['project_id = $1'];
      const params: unknown[] = [filter.projectId];
      if (filter.name !== undefined) where.push(`name = $${params.push(filter.name)}`);
      // GitLab's `search`: names starting with the term
      if (filter.search !== undefined) where.push(`name LIKE $${params.push(`${filter.search.replace(/[\\%_]/g, '\\$&')}%`)}`);
      if (filter.states !== undefined) where.push(`state = $${params.push(filter.states)}`);
      const sql = where.join(' AND ');
      const [{ rows }, count] = await Promise.all([
        db.query<EnvironmentRow>(`SELECT * FROM environments WHERE ${sql} ORDER BY id LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM environments WHERE ${sql}`, params),
      ]);
      return { environments: rows, total: count.rows[0]!.count };
    },

    async update(id: number, changes: Partial<Pick<EnvironmentRow, 'external_url' | 'tier' | 'state' | 'auto_stop_at'>>, tx?: Queryable): Promise<EnvironmentRow> {
      const entries = Object.entries(changes);
      const sets = entries.map(([column], i) => `${column} = $${i + 2}`);
      const { rows } = await on(db, tx).query<EnvironmentRow>(
        `UPDATE environments SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *`,
        [id, ...entries.map(([, value]) => value)],
      );
      return rows[0]!;
    },

    /** Moves the state by compare-and-swap; null when it no longer is in `from`. */
    async casState(id: number, from: readonly EnvironmentState[], to: EnvironmentState, tx?: Queryable): Promise<EnvironmentRow | null> {
      const { rows } = await on(db, tx).query<EnvironmentRow>(
        `UPDATE environments SET state = $3, updated_at = now(), auto_stop_at = CASE WHEN $3 = 'stopped' THEN NULL ELSE auto_stop_at END
          WHERE id = $1 AND state = ANY($2::text[]) RETURNING *`,
        [id, from, to],
      );
      return rows[0] ?? null;
    },

    async remove(id: number): Promise<void> {
      await db.query('DELETE FROM environments WHERE id = $1', [id]);
    },

    /** Available environments whose auto_stop_at has passed. */
    async dueForAutoStop(now: Date, limit: number): Promise<EnvironmentRow[]> {
      const { rows } = await db.query<EnvironmentRow>(
        `SELECT * FROM environments WHERE state = 'available' AND auto_stop_at IS NOT NULL AND auto_stop_at <= $1 ORDER BY auto_stop_at LIMIT $2`,
        [now, limit],
      );
      return rows;
    },

    /** Environments of a project whose last deployment finished before `before` (or with none, created before it). */
    async stale(projectId: number, before: Date): Promise<EnvironmentRow[]> {
      const { rows } = await db.query<EnvironmentRow>(
        `SELECT e.* FROM environments e WHERE e.project_id = $1 AND e.state = 'available'
            AND coalesce((SELECT max(d.finished_at) FROM deployments d WHERE d.environment_id = e.id), e.updated_at) < $2 ORDER BY e.id`,
        [projectId, before],
      );
      return rows;
    },

    /** Stopped review apps (environments in a folder) not updated since `before`, at most `limit`. */
    async stoppedReviewApps(projectId: number, before: Date, limit: number): Promise<EnvironmentRow[]> {
      const { rows } = await db.query<EnvironmentRow>(
        `SELECT * FROM environments WHERE project_id = $1 AND state = 'stopped' AND environment_type IS NOT NULL AND updated_at < $2 ORDER BY id LIMIT $3`,
        [projectId, before, limit],
      );
      return rows;
    },

    async insertDeployment(input: NewDeployment, tx?: Queryable): Promise<DeploymentRow> {
      const q = on(db, tx);
      const { rows: iid } = await q.query<{ last_iid: number }>(
        `INSERT INTO deployment_iids (project_id, last_iid) VALUES ($1, 1)
         ON CONFLICT (project_id) DO UPDATE SET last_iid = deployment_iids.last_iid + 1 RETURNING last_iid`,
        [input.projectId],
      );
      const { rows } = await q.query<DeploymentRow>(
        `INSERT INTO deployments (project_id, environment_id, iid, job_id, ref, tag, sha, user_id, status, on_stop, finished_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $9 = ANY($11::text[]) THEN now() END) RETURNING *`,
        [input.projectId, input.environmentId, iid[0]!.last_iid, input.jobId, input.ref, input.tag, input.sha, input.userId, input.status, input.onStop, FINISHED],
      );
      return rows[0]!;
    },

    async deploymentForJob(jobId: number, tx?: Queryable): Promise<DeploymentRow | null> {
      const { rows } = await on(db, tx).query<DeploymentRow>('SELECT * FROM deployments WHERE job_id = $1', [jobId]);
      return rows[0] ?? null;
    },

    async findDeployment(projectId: number, id: number, tx?: Queryable): Promise<DeploymentRow | null> {
      const { rows } = await on(db, tx).query<DeploymentRow>('SELECT * FROM deployments WHERE project_id = $1 AND id = $2', [projectId, id]);
      return rows[0] ?? null;
    },

    async setDeploymentStatus(id: number, status: DeploymentStatus, tx?: Queryable): Promise<DeploymentRow> {
      const { rows } = await on(db, tx).query<DeploymentRow>(
        `UPDATE deployments SET status = $2, updated_at = now(), finished_at = CASE WHEN $2 = ANY($3::text[]) THEN now() ELSE finished_at END WHERE id = $1 RETURNING *`,
        [id, status, FINISHED],
      );
      return rows[0]!;
    },

    /** The newest successful deployment of each environment (GitLab's last_deployment). */
    async lastDeployments(environmentIds: readonly number[]): Promise<Map<number, DeploymentRow>> {
      if (environmentIds.length === 0) return new Map();
      const { rows } = await db.query<DeploymentRow>(
        `SELECT DISTINCT ON (environment_id) * FROM deployments WHERE environment_id = ANY($1::bigint[]) AND status = 'success' ORDER BY environment_id, id DESC`,
        [environmentIds],
      );
      return new Map(rows.map((row) => [Number(row.environment_id), row]));
    },

    /**
     * Per available environment of these projects, its newest deployment of `sha`: the
     * environments a merge request's head (or its merge commit) was deployed to.
     */
    async deploymentsOfSha(projectIds: readonly number[], sha: string): Promise<{ environment: EnvironmentRow; deployment: DeploymentRow }[]> {
      if (projectIds.length === 0) return [];
      const { rows } = await db.query<DeploymentRow & { environment: EnvironmentRow }>(
        `SELECT DISTINCT ON (d.environment_id) d.*, to_jsonb(e) AS environment
           FROM deployments d JOIN environments e ON e.id = d.environment_id
          WHERE d.project_id = ANY($1::bigint[]) AND d.sha = $2 AND e.state = 'available'
          ORDER BY d.environment_id, d.id DESC`,
        [projectIds, sha],
      );
      return rows.map(({ environment, ...deployment }) => ({ environment, deployment }));
    },

    /** The newest deployment of an environment whatever its status (its on_stop job is the one to run). */
    async latestDeployment(environmentId: number, tx?: Queryable): Promise<DeploymentRow | null> {
      const { rows } = await on(db, tx).query<DeploymentRow>(
        `SELECT * FROM deployments WHERE environment_id = $1 AND status IN ('success', 'running', 'created', 'failed') ORDER BY id DESC LIMIT 1`,
        [environmentId],
      );
      return rows[0] ?? null;
    },

    async listDeployments(filter: DeploymentListFilter): Promise<{ deployments: DeploymentRow[]; total: number }> {
      const where = ['d.project_id = $1'];
      const params: unknown[] = [filter.projectId];
      if (filter.environment !== undefined) where.push(`e.name = $${params.push(filter.environment)}`);
      if (filter.status !== undefined) where.push(`d.status = $${params.push(filter.status)}`);
      if (filter.updatedAfter) where.push(`d.updated_at > $${params.push(filter.updatedAfter)}`);
      if (filter.updatedBefore) where.push(`d.updated_at < $${params.push(filter.updatedBefore)}`);
      const sql = where.join(' AND ');
      const direction = filter.sort === 'asc' ? 'ASC' : 'DESC';
      const from = 'FROM deployments d JOIN environments e ON e.id = d.environment_id';
      const [{ rows }, count] = await Promise.all([
        db.query<DeploymentRow>(`SELECT d.* ${from} WHERE ${sql} ORDER BY d.${filter.orderBy} ${direction} NULLS LAST, d.id ${direction} LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count ${from} WHERE ${sql}`, params),
      ]);
      return { deployments: rows, total: count.rows[0]!.count };
    },
  };
}

export type EnvironmentsRepository = ReturnType<typeof createEnvironmentsRepository>;
