import { AccessLevel } from '@tributary/contracts';
import { on, type Queryable } from '../../platform/db/database.js';
import { USER_COLUMNS, type User } from './user.js';

export interface NewUserRow {
  username: string;
  name: string;
  email: string;
  passwordHash: string | null;
  isAdmin: boolean;
}

export interface UserListFilter {
  search?: string;
  username?: string;
  /** GitLab's filters: `blocked`, `active`, `exclude_active`, `admins` */
  state?: 'active' | 'blocked';
  excludeState?: 'active';
  admins?: boolean;
  createdAfter?: Date;
  createdBefore?: Date;
  /** users who are members of no project and own none */
  withoutProjects?: boolean;
  orderBy?: 'id' | 'name' | 'username' | 'created_at' | 'updated_at';
  sort?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface UserChanges {
  name?: string;
  email?: string;
  passwordHash?: string;
  isAdmin?: boolean;
  bio?: string;
}

/**
 * Users by id, keyed by id, for repositories that show authors, assignees or resolvers beside their
 * own rows. Nulls (a deleted author, an unresolved note) and repeats are dropped; ids with no user
 * are absent from the map, so callers decide what a missing user means.
 */
export async function usersByIds(db: Queryable, ids: Iterable<number | null>): Promise<Map<number, User>> {
  const unique = [...new Set([...ids].filter((id): id is number => id !== null))];
  if (unique.length === 0) return new Map();
  const { rows } = await db.query<User>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ANY($1::bigint[])`, [unique]);
  return new Map(rows.map((user) => [user.id, user]));
}

export function createUsersRepository(db: Queryable) {
  return {
    async insert(row: NewUserRow, tx?: Queryable): Promise<User> {
      const { rows } = await on(db, tx).query<User>(
        `INSERT INTO users (username, name, email, password_hash, is_admin) VALUES ($1, $2, $3, $4, $5) RETURNING ${USER_COLUMNS}`,
        [row.username, row.name, row.email, row.passwordHash, row.isAdmin],
      );
      return rows[0]!;
    },
    async findById(id: number, tx?: Queryable): Promise<User | undefined> {
      const { rows } = await on(db, tx).query<User>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
      return rows[0];
    },
    async findByUsername(username: string, tx?: Queryable): Promise<User | undefined> {
      const { rows } = await on(db, tx).query<User>(`SELECT ${USER_COLUMNS} FROM users WHERE lower(username) = lower($1)`, [username]);
      return rows[0];
    },
    /** For sign-in: the row with its password hash, by username or email. */
    async findCredentials(login: string): Promise<(User & { password_hash: string | null }) | undefined> {
      const { rows } = await db.query<User & { password_hash: string | null }>(
        `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE lower(username) = lower($1) OR lower(email) = lower($1) LIMIT 1`,
        [login],
      );
      return rows[0];
    },
    async exists(field: 'username' | 'email', value: string, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query(`SELECT 1 FROM users WHERE lower(${field}) = lower($1)`, [value]);
      return rowCount > 0;
    },
    async list(filter: UserListFilter): Promise<{ users: User[]; total: number }> {
      const where: string[] = [];
      const params: unknown[] = [];
      const param = (value: unknown) => `$${params.push(value)}`;
      if (filter.username) where.push(`lower(username) = lower(${param(filter.username)})`);
      if (filter.search) {
        const pattern = param(`%${filter.search.toLowerCase()}%`);
        where.push(`(lower(username) LIKE ${pattern} OR lower(name) LIKE ${pattern} OR lower(email) LIKE ${pattern})`);
      }
      if (filter.state) where.push(`state = ${param(filter.state)}`);
      if (filter.excludeState) where.push(`state <> ${param(filter.excludeState)}`);
      if (filter.admins) where.push('is_admin');
      if (filter.createdAfter) where.push(`created_at > ${param(filter.createdAfter)}`);
      if (filter.createdBefore) where.push(`created_at < ${param(filter.createdBefore)}`);
      if (filter.withoutProjects) {
        where.push(`NOT EXISTS (SELECT 1 FROM project_members pm WHERE pm.user_id = users.id)
          AND NOT EXISTS (SELECT 1 FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE n.kind = 'user' AND n.owner_id = users.id)`);
      }
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      // Column and direction come from the fixed lists the route accepts, never from the request as text.
      const column = { id: 'id', name: 'name', username: 'username', created_at: 'created_at', updated_at: 'created_at' }[filter.orderBy ?? 'id'];
      const direction = filter.sort === 'asc' ? 'ASC' : 'DESC';
      const [page, count] = await Promise.all([
        db.query<User>(`SELECT ${USER_COLUMNS} FROM users ${clause} ORDER BY ${column} ${direction}, id ${direction} LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM users ${clause}`, params),
      ]);
      return { users: page.rows, total: count.rows[0]!.count };
    },
    async update(id: number, changes: UserChanges, tx?: Queryable): Promise<void> {
      await on(db, tx).query(
        `UPDATE users SET name = COALESCE($2, name), email = COALESCE($3, email), password_hash = COALESCE($4, password_hash),
                is_admin = COALESCE($5, is_admin), bio = COALESCE($6, bio) WHERE id = $1`,
        [id, changes.name ?? null, changes.email ?? null, changes.passwordHash ?? null, changes.isAdmin ?? null, changes.bio ?? null],
      );
    },
    /** Whether another user has this email (case-insensitive). */
    async emailTakenByOther(email: string, id: number, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query('SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2', [email, id]);
      return rowCount > 0;
    },
    /** Whether the user is the only Owner of some group (GitLab will not delete them then). */
    async isSoleGroupOwner(id: number, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query(
        `SELECT 1 FROM group_members gm WHERE gm.user_id = $1 AND gm.access_level = ${AccessLevel.Owner}
            AND NOT EXISTS (SELECT 1 FROM group_members o WHERE o.group_id = gm.group_id AND o.access_level = ${AccessLevel.Owner} AND o.user_id <> $1) LIMIT 1`,
        [id],
      );
      return rowCount > 0;
    },
    /** Deletes the row; memberships, tokens and sessions go with it, authorship becomes null (ON DELETE). */
    async remove(id: number, tx: Queryable): Promise<void> {
      await tx.query('DELETE FROM users WHERE id = $1', [id]);
    },
    async recordSignIn(id: number): Promise<void> {
      await db.query('UPDATE users SET last_sign_in_at = current_sign_in_at, current_sign_in_at = now() WHERE id = $1', [id]);
    },
    async setState(id: number, state: 'active' | 'blocked'): Promise<void> {
      await db.query('UPDATE users SET state = $2 WHERE id = $1', [id, state]);
      if (state === 'blocked') await db.query('DELETE FROM sessions WHERE user_id = $1', [id]);
    },
    async countAdmins(): Promise<number> {
      const { rows } = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM users WHERE is_admin');
      return rows[0]!.count;
    },
    async count(): Promise<number> {
      const { rows } = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
      return rows[0]!.count;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
