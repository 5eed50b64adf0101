import type { Queryable } from '../../platform/db/database.js';
import { digest, generateOpaqueSecret } from '../../auth/secrets.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { User } from '../users/user.js';
import type { PasswordAuthenticator } from './password-authenticator.js';

export const SESSION_TTL_DAYS = 7;

export interface Session {
  user: User;
  csrfToken: string;
}

export function createSessionsService(deps: {
  db: Queryable;
  users: Pick<UsersRepository, 'findById' | 'recordSignIn'>;
  passwords: PasswordAuthenticator;
}) {
  return {
    /** Checks the password (rate limited per login and per address) and opens a session. */
    async signIn(login: string, password: string, clientAddress: string): Promise<{ sessionId: string; session: Session }> {
      const user = await deps.passwords.verify(login, password, clientAddress);
      await deps.users.recordSignIn(user.id);
      const sessionId = generateOpaqueSecret();
      const csrfToken = generateOpaqueSecret();
      await deps.db.query(
        `INSERT INTO sessions (id_digest, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
        [digest(sessionId), user.id, csrfToken, SESSION_TTL_DAYS],
      );
      return { sessionId, session: { user, csrfToken } };
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
