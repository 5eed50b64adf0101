/**
 * A diff limited to some paths: one page of a long diff without making git write the patch
 * of every other file. Renames are found when both of their paths are asked for.
 */
import { git } from './command.js';
import { EMPTY_TREE_SHA1 } from './diff.js';
import { parseDiffTree } from './diff-format.js';
import { buildFileDiffs, DEFAULT_DIFF_LIMITS, type DiffLimits, type DiffResult } from './file-diffs.js';

export async function diffTreesForPaths(repoPath: string, from: string | null, to: string, paths: readonly string[], limits: DiffLimits = DEFAULT_DIFF_LIMITS): Promise<DiffResult> {
  if (paths.length === 0) return { diffs: [], overflow: false };
  const { stdout } = await git(repoPath)
    .config('core.quotePath', 'false')
    .sub('diff-tree')
    .flag('-r', '-M', '--raw', '--numstat', '-z', '--no-abbrev', '--full-index', '--no-ext-diff', '--no-textconv', '--no-color', '-p', '--src-prefix=a/', '--dst-prefix=b/')
    .maxOutput(limits.maxOutputBytes ?? 64 * 1024 * 1024)
    .revisions(from ?? EMPTY_TREE_SHA1, to)
    .paths(...paths)
    .run();
  return buildFileDiffs(parseDiffTree(stdout), limits);
}
