import type { Queryable } from '../../platform/db/database.js';
import { USER_COLUMNS, type User } from '../users/user.js';
import type { PersonalAccessToken } from './token.js';

const COLUMNS = 'id, user_id, name, scopes, expires_at::text AS expires_at, revoked, created_at, last_used_at';

export function createTokensRepository(db: Queryable) {
  return {
    async insert(input: { userId: number; name: string; digest: string; scopes: string[]; expiresAt: string | null }): Promise<PersonalAccessToken> {
      const { rows } = await db.query<PersonalAccessToken>(
        `INSERT INTO personal_access_tokens (user_id, name, token_digest, scopes, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [input.userId, input.name, input.digest, input.scopes, input.expiresAt],
      );
      return rows[0]!;
    },
    /**
     * An active token (not revoked, not expired) with its active owner, in
     * one query: this runs on every token-authenticated request.
     */
    async findActiveWithUser(digest: string): Promise<{ token: PersonalAccessToken; user: User } | undefined> {
      const userColumns = USER_COLUMNS.split(', ').map((column) => `u.${column} AS "u_${column}"`).join(', ');
      const tokenColumns = COLUMNS.split(', ').map((column) => (column.includes(' AS ') ? `t.${column}` : `t.${column}`)).join(', ');
      const { rows } = await db.query<Record<string, unknown>>(
        `SELECT ${tokenColumns}, ${userColumns} FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
          WHERE t.token_digest = $1 AND NOT t.revoked AND (t.expires_at IS NULL OR t.expires_at > current_date) AND u.state = 'active'`,
        [digest],
        { name: 'tokens.find_active_with_user' },
      );
      const row = rows[0];
      if (!row) return undefined;
      const user = Object.fromEntries(USER_COLUMNS.split(', ').map((column) => [column, row[`u_${column}`]])) as unknown as User;
      const token = Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith('u_'))) as unknown as PersonalAccessToken;
      return { token, user };
    },
    async findById(id: number): Promise<PersonalAccessToken | undefined> {
      const { rows } = await db.query<PersonalAccessToken>(`SELECT ${COLUMNS} FROM personal_access_tokens WHERE id = $1`, [id]);
      return rows[0];
    },
    async list(filter: { userId?: number; state?: 'active' | 'inactive'; limit: number; offset: number }): Promise<{ tokens: PersonalAccessToken[]; total: number }> {
      const params: unknown[] = [];
      const where: string[] = [];
      if (filter.userId !== undefined) {
        params.push(filter.userId);
        where.push(`user_id = $${params.length}`);
      }
      if (filter.state === 'active') where.push('NOT revoked AND (expires_at IS NULL OR expires_at > current_date)');
      if (filter.state === 'inactive') where.push('(revoked OR expires_at <= current_date)');
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const [page, count] = await Promise.all([
        db.query<PersonalAccessToken>(`SELECT ${COLUMNS} FROM personal_access_tokens ${clause} ORDER BY id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM personal_access_tokens ${clause}`, params),
      ]);
      return { tokens: page.rows, total: count.rows[0]!.count };
    },
    async revoke(id: number): Promise<void> {
      await db.query('UPDATE personal_access_tokens SET revoked = true WHERE id = $1', [id]);
    },
    /** Written at most once a minute per token, so hot API paths do not write on every request. */
    async touch(id: number): Promise<void> {
      await db.query(
        `UPDATE personal_access_tokens SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
        [id],
      );
    },
  };
}

export type TokensRepository = ReturnType<typeof createTokensRepository>;
