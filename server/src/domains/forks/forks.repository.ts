import { on, type Queryable } from '../../platform/db/database.js';

/** Fork bookkeeping lives on projects.forked_from_id; these are the questions asked of it. */
export function createForksRepository(db: Queryable) {
  return {
    /**
     * The root of a project's fork network: follow forked_from_id up to a project forked from
     * nothing. (A deleted upstream cuts the chain, as GitLab's "unlink fork" does.)
     */
    async networkRoot(projectId: number, tx?: Queryable): Promise<number | null> {
      const { rows } = await on(db, tx).query<{ id: number }>(
        `WITH RECURSIVE up (id, parent, depth) AS (
           SELECT id, forked_from_id, 0 FROM projects WHERE id = $1
           UNION ALL
           SELECT p.id, p.forked_from_id, up.depth + 1 FROM projects p JOIN up ON p.id = up.parent WHERE up.depth < 100)
         SELECT id FROM up WHERE parent IS NULL LIMIT 1`,
        [projectId],
      );
      return rows[0]?.id ?? null;
    },

    /** The oldest live fork of a project in one namespace (GitLab: Namespace#find_fork_of). */
    async forkIn(projectId: number, namespaceId: number): Promise<number | null> {
      const { rows } = await db.query<{ id: number }>(
        'SELECT id FROM projects WHERE forked_from_id = $1 AND namespace_id = $2 AND NOT pending_delete ORDER BY id LIMIT 1',
        [projectId, namespaceId],
      );
      return rows[0]?.id ?? null;
    },
  };
}

export type ForksRepository = ReturnType<typeof createForksRepository>;
