import type { Queryable } from '../../platform/db/database.js';

export interface RedirectMatch {
  /** the old path that matched (as stored) */
  oldPath: string;
  /** where that project or group is now */
  newPath: string;
  sourceType: 'namespace' | 'project';
}

/**
 * The old paths of renamed and moved projects and groups (GitLab's redirect_routes). The
 * migration's trigger on routes keeps the table: a path change leaves the old path here, a
 * route taking a path removes the redirect that had it, a deleted route takes its redirects.
 */
export function createRedirectRoutesRepository(db: Queryable) {
  return {
    /**
     * Of `paths` (the prefixes of a URL), the longest that is an old path, with the current path
     * of what moved; none when a live route is at least as long (a live path always wins).
     */
    async longestMatch(paths: string[]): Promise<RedirectMatch | undefined> {
      if (paths.length === 0) return undefined;
      const lower = paths.map((path) => path.toLowerCase());
      const { rows } = await db.query<{ old_path: string; new_path: string; source_type: 'namespace' | 'project'; live: number | null }>(
        `SELECT rr.path AS old_path, r.path AS new_path, rr.source_type,
                (SELECT max(length(l.path)) FROM routes l WHERE lower(l.path) = ANY($1)) AS live
           FROM redirect_routes rr
           JOIN routes r ON r.source_type = rr.source_type AND r.source_id = rr.source_id
          WHERE lower(rr.path) = ANY($1)
          ORDER BY length(rr.path) DESC
          LIMIT 1`,
        [lower],
        { name: 'redirect_routes.longest_match' },
      );
      const row = rows[0];
      if (!row || (row.live !== null && Number(row.live) >= row.old_path.length)) return undefined;
      return { oldPath: row.old_path, newPath: row.new_path, sourceType: row.source_type };
    },
  };
}

export type RedirectRoutesRepository = ReturnType<typeof createRedirectRoutesRepository>;
