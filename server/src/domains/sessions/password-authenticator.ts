import type { Queryable } from '../../platform/db/database.js';
import { TooManyRequestsError, UnauthorizedError } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { User } from '../users/user.js';

/** Throttling: this many failures per login (and per client address) in the window lock it out. */
export const SIGN_IN_MAX_FAILURES = 10;
export const SIGN_IN_WINDOW_MINUTES = 10;
export const INVALID_LOGIN_MESSAGE = 'Invalid login or password.';

/**
 * The one place a password is checked, for the web sign-in and for git over
 * HTTP alike, so neither can be used to guess around the other's throttle.
 * An unknown login still costs one scrypt verification, so response times
 * do not tell which usernames exist.
 */
export function createPasswordAuthenticator(deps: { db: Queryable; users: Pick<UsersRepository, 'findCredentials'> }) {
  let dummyHash: Promise<string> | undefined;

  async function failures(key: string): Promise<number> {
    const { rows } = await deps.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM sign_in_failures WHERE key = $1 AND failed_at > now() - make_interval(mins => $2)`,
      [key, SIGN_IN_WINDOW_MINUTES],
    );
    return rows[0]!.count;
  }

  return {
    /** The active user with this login and password; 429 when throttled, 401 otherwise. */
    async verify(login: string, password: string, clientAddress: string): Promise<User> {
      const keys = [`login:${login.toLowerCase()}`, `ip:${clientAddress}`];
      for (const key of keys) if ((await failures(key)) >= SIGN_IN_MAX_FAILURES) throw new TooManyRequestsError();
      const user = await deps.users.findCredentials(login);
      dummyHash ??= hashPassword('not a real password');
      const matches = await verifyPassword(password, user?.password_hash ?? (await dummyHash));
      if (!user || !matches || user.state !== 'active') {
        for (const key of keys) await deps.db.query('INSERT INTO sign_in_failures (key) VALUES ($1)', [key]);
        throw new UnauthorizedError(INVALID_LOGIN_MESSAGE);
      }
      await deps.db.query('DELETE FROM sign_in_failures WHERE key = $1', [keys[0]]);
      const { password_hash: _, ...plain } = user;
      return plain;
    },
  };
}

export type PasswordAuthenticator = ReturnType<typeof createPasswordAuthenticator>;
