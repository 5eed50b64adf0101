/** The common ancestor of several commits, as Gitaly's FindMergeBase asks git for it. */
import { assertObjectId, git } from './command.js';
import { GitCommandError } from './errors.js';

/**
 * `git merge-base <a> <b> <c>…` with full SHAs: the best common ancestor of the first commit
 * and (for three or more) a merge of the others, as GitLab's merge_base API returns it.
 * Null when the histories share nothing.
 */
export async function mergeBaseOfCommits(repoPath: string, shas: readonly string[]): Promise<string | null> {
  if (shas.length < 2) throw new Error('merge-base needs two commits');
  const result = await git(repoPath).sub('merge-base').objectIds(...shas.map(assertObjectId)).exec();
  if (result.exitCode === 1 && result.stderr === '') return null;
  if (result.exitCode !== 0) throw new GitCommandError('merge-base', result.exitCode, result.stderr, 'unknown');
  return result.stdout.toString('utf8').trim() || null;
}
