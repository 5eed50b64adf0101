/** `git merge-base`: the common ancestor of commits, for merges, versions, compares and GitLab's merge_base API. */
import { assertObjectId, git } from './command.js';
import { GitCommandError } from './errors.js';

/**
 * The best common ancestor of two revisions, or null when their histories are unrelated.
 * `env` reaches objects of another repository of the fork network (compare across forks).
 */
export function mergeBase(repoPath: string, a: string, b: string, env: Readonly<Record<string, string>> = {}): Promise<string | null> {
  return run(repoPath, (command) => command.revisions(a, b), env);
}

/**
 * `git merge-base <a> <b> <c>…` with full SHAs: the best common ancestor of the first commit
 * and (for three or more) a merge of the others, as GitLab's merge_base API returns it.
 * Null when the histories share nothing.
 */
export function mergeBaseOfCommits(repoPath: string, shas: readonly string[]): Promise<string | null> {
  if (shas.length < 2) throw new Error('merge-base needs two commits');
  return run(repoPath, (command) => command.objectIds(...shas.map(assertObjectId)));
}

type Command = ReturnType<ReturnType<typeof git>['sub']>;

async function run(repoPath: string, withCommits: (command: Command) => Command, env: Readonly<Record<string, string>> = {}): Promise<string | null> {
  const result = await withCommits(git(repoPath).env(env).sub('merge-base')).exec();
  // Exit 1 without a message: no common ancestor.
  if (result.exitCode === 1 && result.stderr === '') return null;
  if (result.exitCode !== 0) throw new GitCommandError('merge-base', result.exitCode, result.stderr, 'unknown');
  return result.stdout.toString('utf8').trim() || null;
}
