import { generatePassword } from '../../auth/passwords.js';
import type { UsersService } from './users.service.js';

/**
 * A start with no administrator creates `root`: with TRIBUTARY_ROOT_PASSWORD
 * when set, otherwise with a generated password that is returned so the
 * caller prints it once. Once an administrator exists, starts change nothing
 * (users made with the CLI before the first start do not prevent root).
 */
export async function ensureRootUser(users: Pick<UsersService, 'countAdmins' | 'create'>, password: string | undefined): Promise<string | undefined> {
  if ((await users.countAdmins()) > 0) return undefined;
  const chosen = password ?? generatePassword();
  await users.create(null, { username: 'root', name: 'Administrator', email: 'root@localhost', password: chosen, admin: true });
  return password ? undefined : chosen;
}
