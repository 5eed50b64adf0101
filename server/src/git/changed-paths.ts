/**
 * The paths a push changed between two commits (for CI `rules:changes`): every added,
 * modified or deleted file, renames as a delete and an add, as GitLab lists them.
 */
import { git } from './command.js';

const FLAGS = ['-r', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', '--no-color'] as const;

export async function changedPaths(repoPath: string, from: string, to: string): Promise<string[] | null> {
  const result = await git(repoPath).sub('diff-tree').flag(...FLAGS).revisions(from, to).exec();
  if (result.exitCode !== 0) return null;
  return result.stdout.toString('utf8').split('\0').filter(Boolean);
}
