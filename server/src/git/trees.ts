/**
 * The root trees of commits. Merges, cherry-picks and rebases compare and commit trees, and
 * read many at once: one `cat-file --batch-check` for any number of revisions, fed over stdin
 * so that no value reaches git as an argument.
 */
import { git } from './command.js';
import { GitCommandError } from './errors.js';

/** The tree of each revision, in the order given; throws when one names no commit or tree. */
export async function treesOf(repoPath: string, revisions: readonly string[]): Promise<string[]> {
  if (revisions.length === 0) return [];
  const { stdout } = await git(repoPath)
    .sub('cat-file')
    .flag('--batch-check=%(objectname)')
    .input(revisions.map((revision) => `${revision}^{tree}\n`).join(''))
    .run();
  const lines = stdout.toString('utf8').split('\n').slice(0, revisions.length);
  // cat-file answers `<input> missing` (or `ambiguous`) for what it cannot find, on stdout.
  const unknown = lines.findIndex((line) => !/^[0-9a-f]{40}$/.test(line));
  if (unknown !== -1) throw new GitCommandError('cat-file', 0, `fatal: bad object ${revisions[unknown]}`, 'bad-object');
  return lines;
}

/** The tree of one revision. */
export async function treeOf(repoPath: string, revision: string): Promise<string> {
  const [tree] = await treesOf(repoPath, [revision]);
  return tree!;
}
