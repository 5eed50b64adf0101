/**
 * The whole patch between two commits, byte for byte as git prints it (GitLab's raw_diffs):
 * headers included, paths unquoted only where git leaves them so, invalid UTF-8 kept.
 */
import { git } from './command.js';
import { EMPTY_TREE_SHA1 } from './diff.js';

/** More than this is cut off by GitOutputTooLargeError rather than held in memory. */
export const RAW_DIFF_MAX_BYTES = 64 * 1024 * 1024;

export async function rawDiff(repoPath: string, from: string | null, to: string): Promise<Buffer> {
  const { stdout } = await git(repoPath)
    .config('core.quotePath', 'false')
    .sub('diff-tree')
    .flag('-r', '-M', '-p', '--no-ext-diff', '--no-textconv', '--no-color', '--full-index', '--src-prefix=a/', '--dst-prefix=b/')
    .maxOutput(RAW_DIFF_MAX_BYTES)
    .revisions(from ?? EMPTY_TREE_SHA1, to)
    .run();
  return stdout;
}
