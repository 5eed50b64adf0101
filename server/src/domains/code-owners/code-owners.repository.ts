/**
 * All SQL of code owners: resolving the owners a CODEOWNERS file names (one query per kind:
 * usernames, group full paths, emails, roles) and the paths a merge request's latest version
 * changed.
 */
import { AccessLevel } from '@tributary/contracts';
import { on, type Queryable } from '../../platform/db/database.js';
import type { OwnerRole } from './codeowners-file.js';

/** The access level each CODEOWNERS role names (GitLab: exactly that role, not the ones above). */
/** A membership that has not expired. */
const ACTIVE = (alias: string) => `(${alias}.expires_at IS NULL OR ${alias}.expires_at >= current_date)`;

export const ROLE_ACCESS_LEVELS: Record<OwnerRole, number> = { developer: AccessLevel.Developer, maintainer: AccessLevel.Maintainer, owner: AccessLevel.Owner };

export interface ResolvedUser {
  id: number;
  username: string;
  name: string;
  email: string;
}
export interface ResolvedGroup {
  id: number;
  full_path: string;
  name: string;
}

export function createCodeOwnersRepository(db: Queryable) {
  return {
    /** Active users by username (case-insensitive). */
    async usersByUsernames(names: readonly string[], tx?: Queryable): Promise<ResolvedUser[]> {
      if (names.length === 0) return [];
      const { rows } = await on(db, tx).query<ResolvedUser>(
        "SELECT id, username, name, email FROM users WHERE lower(username) = ANY($1::text[]) AND state = 'active' ORDER BY id",
        [names.map((name) => name.toLowerCase())],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },

    /** Active users by email (case-insensitive). */
    async usersByEmails(emails: readonly string[], tx?: Queryable): Promise<ResolvedUser[]> {
      if (emails.length === 0) return [];
      const { rows } = await on(db, tx).query<ResolvedUser>(
        "SELECT id, username, name, email FROM users WHERE lower(email) = ANY($1::text[]) AND state = 'active' ORDER BY id",
        [emails.map((email) => email.toLowerCase())],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },

    /** Groups by full path (case-insensitive). */
    async groupsByFullPaths(paths: readonly string[], tx?: Queryable): Promise<ResolvedGroup[]> {
      if (paths.length === 0) return [];
      const { rows } = await on(db, tx).query<ResolvedGroup>(
        `SELECT n.id, r.path AS full_path, n.name FROM namespaces n JOIN routes r ON r.source_type = 'namespace' AND r.source_id = n.id
          WHERE n.kind = 'group' AND lower(r.path) = ANY($1::text[]) ORDER BY n.id`,
        [paths.map((path) => path.toLowerCase())],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },

    /** Direct project members (active, not expired) holding one of `levels`, with their level. */
    async directMembersWithLevels(projectId: number, levels: readonly number[], tx?: Queryable): Promise<Array<ResolvedUser & { access_level: number }>> {
      if (levels.length === 0) return [];
      const { rows } = await on(db, tx).query<ResolvedUser & { access_level: number }>(
        `SELECT u.id, u.username, u.name, u.email, m.access_level FROM project_members m JOIN users u ON u.id = m.user_id AND u.state = 'active'
          WHERE m.project_id = $1 AND m.access_level = ANY($2::int[]) AND (m.expires_at IS NULL OR m.expires_at >= current_date) ORDER BY u.id`,
        [projectId, levels],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id), access_level: Number(row.access_level) }));
    },

    /**
     * For the file view's owner checks: the effective access level in the project (the
     * project's ancestor groups, its members, a personal namespace's owner; 0 for none) of the
     * active users named by username or email, and the named groups with whether the project
     * reaches them (its group or an ancestor) and whether a direct member may approve.
     */
    async ownerFacts(
      project: { id: number; traversalIds: number[]; namespaceOwnerId: number | null },
      names: readonly string[],
      emails: readonly string[],
      tx?: Queryable,
    ): Promise<{ users: Array<{ username: string; email: string; level: number }>; groups: Array<{ full_path: string; reachable: boolean; has_eligible_member: boolean }> }> {
      const level = `GREATEST(
          COALESCE((SELECT max(gm.access_level) FROM group_members gm WHERE gm.user_id = u.id AND gm.group_id = ANY($1::bigint[]) AND ${ACTIVE('gm')}), 0),
          COALESCE((SELECT pm.access_level FROM project_members pm WHERE pm.user_id = u.id AND pm.project_id = $2 AND ${ACTIVE('pm')}), 0),
          CASE WHEN u.id = $3::bigint THEN ${AccessLevel.Owner} ELSE 0 END)`;
      const [users, groups] = await Promise.all([
        names.length + emails.length === 0
          ? { rows: [] }
          : on(db, tx).query<{ username: string; email: string; level: number }>(
              `SELECT u.username, u.email, ${level} AS level FROM users u
                WHERE u.state = 'active' AND (lower(u.username) = ANY($4::text[]) OR lower(u.email) = ANY($5::text[])) ORDER BY u.id`,
              [project.traversalIds, project.id, project.namespaceOwnerId, names, emails],
            ),
        names.length === 0
          ? { rows: [] }
          : on(db, tx).query<{ full_path: string; reachable: boolean; has_eligible_member: boolean }>(
              `SELECT r.path AS full_path, n.id = ANY($1::bigint[]) AS reachable,
                  EXISTS (SELECT 1 FROM group_members m JOIN users u ON u.id = m.user_id AND u.state = 'active'
                           WHERE m.group_id = n.id AND ${ACTIVE('m')} AND ${level} >= ${AccessLevel.Developer}) AS has_eligible_member
                 FROM namespaces n JOIN routes r ON r.source_type = 'namespace' AND r.source_id = n.id
                WHERE n.kind = 'group' AND lower(r.path) = ANY($4::text[]) ORDER BY n.id`,
              [project.traversalIds, project.id, project.namespaceOwnerId, names],
            ),
      ]);
      return { users: users.rows.map((row) => ({ ...row, level: Number(row.level) })), groups: groups.rows };
    },

    /** Names (or wildcards) of the project's protected branches that require code owner approval. */
    async codeOwnerApprovalBranches(projectId: number, tx?: Queryable): Promise<string[]> {
      const { rows } = await on(db, tx).query<{ name: string }>('SELECT name FROM protected_branches WHERE project_id = $1 AND code_owner_approval_required ORDER BY id', [projectId]);
      return rows.map((row) => row.name);
    },

    /** Paths the merge request's latest version changed: new and old paths (GitLab's modified_paths). */
    async latestChangedPaths(mergeRequestId: number, tx?: Queryable): Promise<string[]> {
      const { rows } = await on(db, tx).query<{ old_path: string; new_path: string }>(
        `SELECT f.old_path, f.new_path FROM merge_requests m JOIN merge_request_diff_files f ON f.merge_request_diff_id = m.latest_diff_id
          WHERE m.id = $1 ORDER BY f.relative_order`,
        [mergeRequestId],
      );
      return [...new Set(rows.flatMap((row) => (row.old_path === row.new_path ? [row.new_path] : [row.new_path, row.old_path])))];
    },
  };
}

export type CodeOwnersRepository = ReturnType<typeof createCodeOwnersRepository>;
