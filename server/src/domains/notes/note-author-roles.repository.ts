import { on, type Database, type Queryable } from '../../platform/db/database.js';
import { effectiveAccessLevelSql } from '../members/members.repository.js';

export interface AuthorRoleRow {
  user_id: number;
  /** the effective project access level (0: not a member) */
  access_level: number;
  /** has a merged merge request into the project */
  contributor: boolean;
}

/**
 * The role badges' facts for the authors of a merge request's notes, in one query: each
 * author's effective access level (the members' own SQL, so badges and permissions agree)
 * and whether they authored a merged merge request in the project (GitLab's `contributor?`).
 */
export function createNoteAuthorRolesRepository(db: Pick<Database, 'query'>) {
  return {
    async forMergeRequest(
      input: { mergeRequestId: number; projectId: number; traversalIds: number[]; namespaceOwnerId: number | null; includeInternal: boolean },
      tx?: Queryable,
    ): Promise<AuthorRoleRow[]> {
      const level = effectiveAccessLevelSql({ user: 'a.author_id', groupIds: '$2::bigint[]', projectId: '$3::bigint', namespaceOwner: '$4::bigint' });
      const { rows } = await on(db, tx).query<{ user_id: string | number; access_level: number; contributor: boolean }>(
        `SELECT a.author_id AS user_id, ${level} AS access_level,
                EXISTS (SELECT 1 FROM merge_requests m WHERE m.target_project_id = $3::bigint AND m.author_id = a.author_id AND m.state = 'merged') AS contributor
           FROM (SELECT DISTINCT n.author_id FROM notes n JOIN discussions d ON d.id = n.discussion_id
                  WHERE n.merge_request_id = $1::bigint AND n.author_id IS NOT NULL AND NOT n.system AND ($5::boolean OR NOT d.internal)) a`,
        [input.mergeRequestId, input.traversalIds, input.projectId, input.namespaceOwnerId, input.includeInternal],
        { name: 'notes.author_roles' },
      );
      return rows.map((row) => ({ user_id: Number(row.user_id), access_level: Number(row.access_level), contributor: row.contributor }));
    },
  };
}
