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
  limit: number;
  offset: number;
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
      if (filter.username) {
        params.push(filter.username);
        where.push(`lower(username) = lower($${params.length})`);
      }
      if (filter.search) {
        params.push(`%${filter.search.toLowerCase()}%`);
        where.push(`(lower(username) LIKE $${params.length} OR lower(name) LIKE $${params.length} OR lower(email) LIKE $${params.length})`);
      }
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const [page, count] = await Promise.all([
        db.query<User>(`SELECT ${USER_COLUMNS} FROM users ${clause} ORDER BY id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM users ${clause}`, params),
      ]);
      return { users: page.rows, total: count.rows[0]!.count };
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
