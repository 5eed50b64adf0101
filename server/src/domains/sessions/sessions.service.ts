import type { Queryable } from '../../platform/db/database.js';
import { TooManyRequestsError, UnauthorizedError } from '../../platform/errors.js';
import { verifyPassword } from '../../auth/passwords.js';
import { digest, generateOpaqueSecret } from '../../auth/secrets.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { User } from '../users/user.js';

export const SESSION_TTL_DAYS = 7;
/** Sign-in throttling: this many failures per login (and per address) in the window lock it out. */
export const SIGN_IN_MAX_FAILURES = 10;
export const SIGN_IN_WINDOW_MINUTES = 10;
export const INVALID_LOGIN_MESSAGE = 'Invalid login or password.';

export interface Session {
  user: User;
  csrfToken: string;
}

export function createSessionsService(deps: { db: Queryable; users: Pick<UsersRepository, 'findCredentials' | 'findById' | 'recordSignIn'> }) {
  async function failures(key: string): Promise<number> {
    const { rows } = await deps.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM sign_in_failures WHERE key = $1 AND failed_at > now() - make_interval(mins => $2)`,
      [key, SIGN_IN_WINDOW_MINUTES],
    );
    return rows[0]!.count;
  }

  return {
    /** Checks the password (rate limited per login and per address) and opens a session. */
    async signIn(login: string, password: string, clientAddress: string): Promise<{ sessionId: string; session: Session }> {
      const keys = [`login:${login.toLowerCase()}`, `ip:${clientAddress}`];
      for (const key of keys) if ((await failures(key)) >= SIGN_IN_MAX_FAILURES) throw new TooManyRequestsError();
      const user = await deps.users.findCredentials(login);
      const ok = user !== undefined && user.state === 'active' && (await verifyPassword(password, user.password_hash));
      if (!ok || !user) {
        for (const key of keys) await deps.db.query('INSERT INTO sign_in_failures (key) VALUES ($1)', [key]);
        throw new UnauthorizedError(INVALID_LOGIN_MESSAGE);
      }
      await deps.db.query('DELETE FROM sign_in_failures WHERE key = $1', [keys[0]]);
      await deps.users.recordSignIn(user.id);
      const sessionId = generateOpaqueSecret();
      const csrfToken = generateOpaqueSecret();
      await deps.db.query(
        `INSERT INTO sessions (id_digest, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
        [digest(sessionId), user.id, csrfToken, SESSION_TTL_DAYS],
      );
      const { password_hash: _, ...plain } = user;
      return { sessionId, session: { user: plain, csrfToken } };
    },
    async find(sessionId: string): Promise<Session | undefined> {
      const { rows } = await deps.db.query<{ user_id: number; csrf_token: string }>(
        'SELECT user_id, csrf_token FROM sessions WHERE id_digest = $1 AND expires_at > now()',
        [digest(sessionId)],
      );
      const row = rows[0];
      if (!row) return undefined;
      const user = await deps.users.findById(row.user_id);
      if (!user || user.state !== 'active') return undefined;
      return { user, csrfToken: row.csrf_token };
    },
    async signOut(sessionId: string): Promise<void> {
      await deps.db.query('DELETE FROM sessions WHERE id_digest = $1', [digest(sessionId)]);
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
