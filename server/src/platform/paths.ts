import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package folder (the one holding migrations/ and hooks/), found
 * by walking up from this module. It works from src/ (tsx, tests), from
 * dist/ (tsc output) and from the single-file bundle alike.
 */
function findServerRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'migrations')) && existsSync(join(dir, 'hooks'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Tributary's server folder (with migrations/ and hooks/) was not found above ${start}`);
    dir = parent;
  }
}

export const SERVER_ROOT = findServerRoot(dirname(fileURLToPath(import.meta.url)));
export const MIGRATIONS_DIR = join(SERVER_ROOT, 'migrations');
export const HOOKS_DIR = join(SERVER_ROOT, 'hooks');
export const WEB_DIST = join(SERVER_ROOT, '..', 'web', 'dist');
