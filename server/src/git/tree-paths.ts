/**
 * Validation of paths inside a git tree, pure. Reads and writes resolve paths against git
 * trees (never the file system), so what matters is that a path is a plain relative path:
 * no `..` or `.` segments, no leading `/`, no empty segments, no NUL. Writes also refuse
 * `.git` in any spelling git itself guards against (`.GIT`, `.git.`, `git~1`).
 */
import { InvalidTreePathError } from './errors.js';

const MAX_PATH_BYTES = 4096;

/** Why `path` cannot name an entry of a tree, or null. */
export function treePathProblem(path: string): string | null {
  if (typeof path !== 'string' || path.length === 0) return 'Path is empty';
  if (path.includes('\0')) return 'Path contains a NUL byte';
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return 'Path is too long';
  if (path.startsWith('/')) return 'Path must be relative';
  for (const segment of path.split('/')) {
    if (segment === '') return 'Path contains an empty segment';
    if (segment === '.' || segment === '..') return 'Path cannot include directory traversal';
  }
  return null;
}

/** `.git` as git's own verify_path understands it on case-insensitive, NTFS and HFS+ systems. */
function isGitDirectoryName(segment: string): boolean {
  const folded = segment.toLowerCase().replace(/[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g, '');
  return folded.replace(/[. ]+$/, '') === '.git' || folded === 'git~1';
}

/** Why `path` may not be written by a commit action, or null. */
export function writablePathProblem(path: string): string | null {
  const problem = treePathProblem(path);
  if (problem) return problem;
  if (path.split('/').some(isGitDirectoryName)) return 'Path cannot include a .git directory';
  return null;
}

export function assertTreePath(path: string): string {
  const problem = treePathProblem(path);
  if (problem) throw new InvalidTreePathError(problem, path);
  return path;
}

/** Parent directories of a tree path, outermost first: `a/b/c` → `a`, `a/b`. */
export function parentPaths(path: string): string[] {
  const segments = path.split('/');
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
}
