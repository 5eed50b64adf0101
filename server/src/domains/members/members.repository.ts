import { AccessLevel } from '@tributary/contracts';
import { on, type Queryable } from '../../platform/db/database.js';
import { USER_COLUMNS, type User } from '../users/user.js';
import type { Member, MemberSource } from './member.js';

const ACTIVE = '(m.expires_at IS NULL OR m.expires_at >= current_date)';

/**
 * SQL for a user's effective access level: the highest of a membership in
 * any of the given groups (the subject's ancestors), a direct project
 * membership, and ownership of a personal namespace; 0 when none. Shared by
 * effectiveAccessLevel and the project lookup that returns the viewer's level
 * with the row, so both always agree.
 */
export function effectiveAccessLevelSql(args: { user: string; groupIds: string; projectId: string; namespaceOwner: string }): string {
  return `CASE WHEN ${args.user} IS NULL THEN 0 ELSE GREATEST(
     COALESCE((SELECT max(m.access_level) FROM group_members m WHERE m.user_id = ${args.user} AND m.group_id = ANY(${args.groupIds}) AND ${ACTIVE}), 0),
     COALESCE((SELECT m.access_level FROM project_members m WHERE m.user_id = ${args.user} AND m.project_id = ${args.projectId} AND ${ACTIVE}), 0),
     CASE WHEN ${args.namespaceOwner} = ${args.user} THEN ${AccessLevel.Owner} ELSE 0 END) END`;
}
const USER_JSON = `json_build_object(${USER_COLUMNS.split(', ')
  .map((column) => `'${column}', u.${column}`)
  .join(', ')})`;

interface MemberRow {
  user: User;
  access_level: number;
  expires_at: string | null;
  created_at: Date;
  created_by_id: number | null;
  source_kind: Member['source_kind'];
  source_id: number;
}

function toMember(row: MemberRow): Member {
  const user = row.user;
  // json_build_object returns timestamps as strings; bring them back to Dates.
  for (const key of ['created_at', 'current_sign_in_at', 'last_sign_in_at'] as const) {
    const value = user[key] as unknown;
    if (typeof value === 'string') (user as unknown as Record<string, unknown>)[key] = new Date(value);
  }
  return { ...row, user, expires_at: row.expires_at ? String(row.expires_at).slice(0, 10) : null };
}

function table(source: MemberSource): { name: string; column: string } {
  return source.kind === 'project' ? { name: 'project_members', column: 'project_id' } : { name: 'group_members', column: 'group_id' };
}

export function createMembersRepository(db: Queryable) {
  return {
    /**
     * The caller's effective access level on a project or group: the highest
     * of a direct membership, memberships of ancestor groups, and (for
     * personal projects) ownership of the namespace. 0 when none.
     */
    async effectiveAccessLevel(userId: number, source: MemberSource, tx?: Queryable): Promise<number> {
      const level = effectiveAccessLevelSql({ user: '$1::bigint', groupIds: '$2::bigint[]', projectId: '$3::bigint', namespaceOwner: '$4::bigint' });
      const { rows } = await on(db, tx).query<{ level: number }>(
        `SELECT ${level} AS level`,
        [userId, source.traversalIds, source.kind === 'project' ? source.id : null, source.kind === 'project' ? source.namespaceOwnerId : null],
        { name: 'members.effective_access_level' },
      );
      return rows[0]?.level ?? 0;
    },
    async listDirect(source: MemberSource, filter: { query?: string; userIds?: number[]; limit: number; offset: number }): Promise<{ members: Member[]; total: number }> {
      const { name, column } = table(source);
      const params: unknown[] = [source.id];
      const where = [`m.${column} = $1`, ACTIVE];
      if (filter.query) {
        params.push(`%${filter.query.toLowerCase()}%`);
        where.push(`(lower(u.username) LIKE $${params.length} OR lower(u.name) LIKE $${params.length})`);
      }
      if (filter.userIds) {
        params.push(filter.userIds);
        where.push(`m.user_id = ANY($${params.length})`);
      }
      const clause = where.join(' AND ');
      const [page, count] = await Promise.all([
        db.query<MemberRow>(
          `SELECT ${USER_JSON} AS user, m.access_level, m.expires_at::text, m.created_at, m.created_by_id,
                  '${source.kind}' AS source_kind, m.${column} AS source_id
             FROM ${name} m JOIN users u ON u.id = m.user_id WHERE ${clause}
            ORDER BY m.access_level DESC, u.username LIMIT ${filter.limit} OFFSET ${filter.offset}`,
          params,
        ),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${name} m JOIN users u ON u.id = m.user_id WHERE ${clause}`, params),
      ]);
      return { members: page.rows.map(toMember), total: count.rows[0]!.count };
    },
    /** Direct and inherited members, one row per user with their highest level (GitLab's /members/all). */
    async listAll(source: MemberSource, filter: { query?: string; userIds?: number[]; limit: number; offset: number }): Promise<{ members: Member[]; total: number }> {
      const params: unknown[] = [source.traversalIds, source.kind === 'project' ? source.id : null];
      const extra: string[] = [];
      if (filter.query) {
        params.push(`%${filter.query.toLowerCase()}%`);
        extra.push(`(lower(u.username) LIKE $${params.length} OR lower(u.name) LIKE $${params.length})`);
      }
      if (filter.userIds) {
        params.push(filter.userIds);
        extra.push(`u.id = ANY($${params.length})`);
      }
      const candidates = `
        SELECT m.user_id, m.access_level, m.expires_at, m.created_at, m.created_by_id, 'group' AS source_kind, m.group_id AS source_id
          FROM group_members m WHERE m.group_id = ANY($1::bigint[]) AND ${ACTIVE}
        UNION ALL
        SELECT m.user_id, m.access_level, m.expires_at, m.created_at, m.created_by_id, 'project', m.project_id
          FROM project_members m WHERE m.project_id = $2::bigint AND ${ACTIVE}`;
      const best = `SELECT DISTINCT ON (c.user_id) c.* FROM (${candidates}) c ORDER BY c.user_id, c.access_level DESC`;
      const clause = extra.length ? `WHERE ${extra.join(' AND ')}` : '';
      const [page, count] = await Promise.all([
        db.query<MemberRow>(
          `SELECT ${USER_JSON} AS user, b.access_level, b.expires_at::text, b.created_at, b.created_by_id, b.source_kind, b.source_id
             FROM (${best}) b JOIN users u ON u.id = b.user_id ${clause}
            ORDER BY b.access_level DESC, u.username LIMIT ${filter.limit} OFFSET ${filter.offset}`,
          params,
        ),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM (${best}) b JOIN users u ON u.id = b.user_id ${clause}`, params),
      ]);
      return { members: page.rows.map(toMember), total: count.rows[0]!.count };
    },
    async insert(source: MemberSource, input: { userId: number; accessLevel: number; expiresAt: string | null; createdById: number | null }, tx?: Queryable): Promise<void> {
      const { name, column } = table(source);
      await on(db, tx).query(
        `INSERT INTO ${name} (${column}, user_id, access_level, expires_at, created_by_id) VALUES ($1, $2, $3, $4, $5)`,
        [source.id, input.userId, input.accessLevel, input.expiresAt, input.createdById],
      );
    },
    async update(source: MemberSource, userId: number, fields: { accessLevel?: number; expiresAt?: string | null }, tx?: Queryable): Promise<boolean> {
      const { name, column } = table(source);
      const { rowCount } = await on(db, tx).query(
        `UPDATE ${name} SET access_level = COALESCE($3, access_level),
                expires_at = CASE WHEN $4 THEN $5::date ELSE expires_at END
          WHERE ${column} = $1 AND user_id = $2`,
        [source.id, userId, fields.accessLevel ?? null, fields.expiresAt !== undefined, fields.expiresAt ?? null],
      );
      return rowCount > 0;
    },
    async remove(source: MemberSource, userId: number, tx?: Queryable): Promise<boolean> {
      const { name, column } = table(source);
      const { rowCount } = await on(db, tx).query(`DELETE FROM ${name} WHERE ${column} = $1 AND user_id = $2`, [source.id, userId]);
      return rowCount > 0;
    },
    async countOwners(groupId: number, tx?: Queryable): Promise<number> {
      const { rows } = await on(db, tx).query<{ count: number }>(
        `SELECT count(*)::int AS count FROM group_members WHERE group_id = $1 AND access_level = ${AccessLevel.Owner}`,
        [groupId],
      );
      return rows[0]!.count;
    },
  };
}

export type MembersRepository = ReturnType<typeof createMembersRepository>;
