import type { Database } from '../../platform/db/database.js';

export interface AllowlistEntry {
  project_id: number;
  allowed_project_id: number;
  created_at: Date;
}

/**
 * The SQL of the CI/CD job token inbound allowlist (GitLab's ci_job_token_project_scope_links,
 * inbound direction): which projects' job tokens may read a project other than their own.
 */
export function createJobTokenScopeRepository(db: Pick<Database, 'query'>) {
  return {
    /** Whether the job tokens of `sourceProjectId` may reach `projectId` (its own project always may). */
    async allows(projectId: number, sourceProjectId: number): Promise<boolean> {
      if (projectId === sourceProjectId) return true;
      const { rows } = await db.query(`SELECT 1 FROM ci_job_token_inbound_allowlist WHERE project_id = $1 AND allowed_project_id = $2`, [projectId, sourceProjectId]);
      return rows.length > 0;
    },

    async list(projectId: number): Promise<AllowlistEntry[]> {
      const { rows } = await db.query<AllowlistEntry>(
        `SELECT project_id, allowed_project_id, created_at FROM ci_job_token_inbound_allowlist WHERE project_id = $1 ORDER BY created_at, allowed_project_id`,
        [projectId],
      );
      return rows.map((row) => ({ ...row, project_id: Number(row.project_id), allowed_project_id: Number(row.allowed_project_id) }));
    },

    /** Adds `allowedProjectId`; false when it was already listed. */
    async add(projectId: number, allowedProjectId: number, addedById: number | null): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO ci_job_token_inbound_allowlist (project_id, allowed_project_id, added_by_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [projectId, allowedProjectId, addedById],
      );
      return rowCount > 0;
    },

    /** Removes `allowedProjectId`; false when it was not listed. */
    async remove(projectId: number, allowedProjectId: number): Promise<boolean> {
      const { rowCount } = await db.query(`DELETE FROM ci_job_token_inbound_allowlist WHERE project_id = $1 AND allowed_project_id = $2`, [projectId, allowedProjectId]);
      return rowCount > 0;
    },
  };
}

export type JobTokenScopeRepository = ReturnType<typeof createJobTokenScopeRepository>;
