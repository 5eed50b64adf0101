import { generatePassword } from '../../auth/passwords.js';
import type { UsersService } from './users.service.js';

/**
 * First start creates the administrator `root`: with TRIBUTARY_ROOT_PASSWORD
 * when set, otherwise with a generated password that is returned so the
 * caller prints it once. Later starts change nothing.
 */
export async function ensureRootUser(users: Pick<UsersService, 'count' | 'create'>, password: string | undefined): Promise<string | undefined> {
  if ((await users.count()) > 0) return undefined;
  const chosen = password ?? generatePassword();
  await users.create(null, { username: 'root', name: 'Administrator', email: 'root@localhost', password: chosen, admin: true });
  return password ? undefined : chosen;
}
