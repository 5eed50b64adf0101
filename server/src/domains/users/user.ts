export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  is_admin: boolean;
  state: 'active' | 'blocked';
  bio: string;
  created_at: Date;
  current_sign_in_at: Date | null;
  last_sign_in_at: Date | null;
}

export const USER_COLUMNS = 'id, username, name, email, is_admin, state, bio, created_at, current_sign_in_at, last_sign_in_at';

/** GitLab's username rule: letters, digits, `_`, `-`, `.`; not starting or ending with a special character. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,253}[A-Za-z0-9_])?$/;

/** Reserved top-level paths: they collide with Tributary's own routes. */
export const RESERVED_TOP_LEVEL_PATHS = new Set([
  '-', 'admin', 'api', 'dashboard', 'explore', 'groups', 'help', 'projects', 'public', 'search', 'users', 'user_settings', 'assets', 'uploads',
]);
