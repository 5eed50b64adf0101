/**
 * Three-way merges without a work tree: `merge-tree --write-tree` (git ≥ 2.38) writes the
 * merged tree, conflict markers included, and names the conflicted paths. A caller commits
 * a clean result with commitTree() and moves the branch with updateRef() (compare-and-swap).
 */
import { git } from './command.js';
import { GitCommandError } from './errors.js';
import { classifyGitError } from './error-codes.js';

export interface MergeTreeResult {
  /** True when git merged without conflicts. */
  clean: boolean;
  /** The merged tree (with conflict markers where `clean` is false). */
  tree: string;
  /** Conflicted paths, each once, in git's order. */
  conflicts: string[];
}

/** `merge-tree --write-tree -z --name-only --no-messages` output: `<tree>\0[<path>\0]…`. Pure. */
export function parseMergeTree(stdout: Buffer, exitCode: number): MergeTreeResult {
  const [tree = '', ...paths] = stdout.toString('utf8').split('\0');
  const conflicts = [...new Set(paths.filter((path) => path !== ''))];
  return { clean: exitCode === 0, tree: tree.trim(), conflicts };
}

/** Merges `theirs` into `ours` (any commit revisions); null when a revision names no commit. */
export async function mergeTree(repoPath: string, ours: string, theirs: string, options: { allowUnrelatedHistories?: boolean } = {}): Promise<MergeTreeResult | null> {
  const command = git(repoPath).sub('merge-tree').flag('--write-tree', '-z', '--name-only', '--no-messages');
  if (options.allowUnrelatedHistories) command.flag('--allow-unrelated-histories');
  const result = await command.revisions(ours, theirs).exec();
  // Exit 1 is "conflicts" when a tree was written, and "bad revision" when nothing was.
  if ((result.exitCode === 0 || result.exitCode === 1) && result.stdout.length > 0) return parseMergeTree(result.stdout, result.exitCode);
  const code = classifyGitError(result.stderr);
  if (code === 'unknown-revision' || code === 'invalid-object-name' || code === 'bad-object') return null;
  throw new GitCommandError('merge-tree', result.exitCode, result.stderr, code);
}
