/**
 * Line statistics of a commit (GitLab's `stats: {additions, deletions, total}`).
 * A small helper beside the git adapter, built with its command builder: one
 * `diff-tree --numstat` call per commit, against its first parent (or the
 * empty tree for a root commit). The parser is pure and tested on literal output.
 */
import { git } from '../../git/command.js';
import type { GitCommit } from '../../git/commit-format.js';
import { EMPTY_TREE_SHA1 } from '../../git/diff.js';

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

const NUMSTAT = /^(-|\d+)\t(-|\d+)\t/;

/**
 * `diff-tree -z --numstat` output: `<added>\t<removed>\t<path>\0` per file, or for a rename
 * `<added>\t<removed>\t\0<old>\0<new>\0`; binary files count `-` (nothing).
 */
export function parseNumstat(stdout: Buffer | string): CommitStats {
  const tokens = (typeof stdout === 'string' ? stdout : stdout.toString('utf8')).split('\0');
  let additions = 0;
  let deletions = 0;
  for (let i = 0; i < tokens.length; i++) {
    const match = NUMSTAT.exec(tokens[i]!);
    if (!match) continue;
    if (match[1] !== '-') additions += Number(match[1]);
    if (match[2] !== '-') deletions += Number(match[2]);
    // A rename leaves the path empty here and names old and new path in the next two fields.
    if (tokens[i]!.length === match[0].length) i += 2;
  }
  return { additions, deletions, total: additions + deletions };
}

export async function commitStats(repoPath: string, commit: GitCommit): Promise<CommitStats> {
  const { stdout } = await git(repoPath)
    .sub('diff-tree')
    .flag('-r', '-M', '--numstat', '-z', '--no-ext-diff', '--no-textconv')
    .revisions(commit.parent_ids[0] ?? EMPTY_TREE_SHA1, commit.id)
    .run();
  return parseNumstat(stdout);
}

/** Stats for many commits, a few git processes at a time. */
export async function commitsStats(repoPath: string, commits: readonly GitCommit[], concurrency = 4): Promise<CommitStats[]> {
  const results: CommitStats[] = new Array(commits.length);
  let next = 0;
  const worker = async () => {
    while (next < commits.length) {
      const i = next++;
      results[i] = await commitStats(repoPath, commits[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, commits.length) }, worker));
  return results;
}
