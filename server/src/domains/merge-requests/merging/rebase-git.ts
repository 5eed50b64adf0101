/**
 * Rebase with plumbing, no work tree: each commit of `onto...head` (as `git rebase` picks
 * them: no merges, none whose patch is already upstream, oldest first) is cherry-picked onto
 * the new base and committed with its author, author date and message kept; the caller then
 * moves the branch by compare-and-swap.
 *
 * git 2.39 has neither `git replay` nor `merge-tree --merge-base` (2.40), so a cherry-pick is
 * done as git does it: a three-way merge of the new base and the commit with the commit's
 * parent as the base (git/three-way.ts gives merge-tree that base with ephemeral commits).
 */
import { git } from '../../../git/command.js';
import { isAncestor, mergeTreesOnBase, type Identity } from '../../../git/index.js';

export interface ReplayCommit {
  id: string;
  tree: string;
  /** the first parent, or null for a root commit */
  parent: string | null;
  parentTree: string | null;
  authorName: string;
  authorEmail: string;
  /** git's raw date: `<seconds> <+hhmm>` */
  authorDate: string;
  message: string;
}

export type RebaseResult = { kind: 'up-to-date' } | { kind: 'rebased'; head: string; picked: number; dropped: number } | { kind: 'conflict'; commit: string; paths: string[] };

const FORMAT = '--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%ad%x00%B';
const FIELDS = 7;

/** `git log -z --date=raw` output in FORMAT; each record ends with NUL. Pure. */
export function parseReplayLog(stdout: string): Array<Omit<ReplayCommit, 'parentTree'>> {
  const fields = stdout.split('\0');
  const commits: Array<Omit<ReplayCommit, 'parentTree'>> = [];
  for (let i = 0; i + FIELDS <= fields.length; i += FIELDS) {
    const [id, tree, parents, authorName, authorEmail, authorDate, message] = fields.slice(i, i + FIELDS) as [string, string, string, string, string, string, string];
    // git log -z separates records with NUL but puts a newline before the next record's first field
    const cleanId = id.replace(/^\n/, '');
    if (!/^[0-9a-f]{40}$/.test(cleanId)) continue;
    commits.push({ id: cleanId, tree, parent: parents.split(' ')[0] || null, authorName, authorEmail, authorDate, message });
  }
  return commits;
}

/** The commits `git rebase onto` would replay from `head`, oldest first. */
async function commitsToReplay(repoPath: string, onto: string, head: string): Promise<ReplayCommit[]> {
  const { stdout } = await git(repoPath)
    .sub('log')
    .flag('-z', '--reverse', '--topo-order', '--no-merges', '--cherry-pick', '--right-only', '--date=raw', FORMAT)
    .revisions(`${onto}...${head}`)
    .run();
  const commits = parseReplayLog(stdout.toString('utf8'));
  const parents = commits.map((commit) => commit.parent).filter((parent): parent is string => parent !== null);
  const parentTrees = await treesOf(repoPath, parents);
  return commits.map((commit) => ({ ...commit, parentTree: commit.parent ? (parentTrees.get(commit.parent) ?? null) : null }));
}

async function treesOf(repoPath: string, commits: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(commits)];
  if (unique.length === 0) return new Map();
  const { stdout } = await git(repoPath)
    .sub('cat-file')
    .flag('--batch-check=%(objectname)')
    .input(unique.map((sha) => `${sha}^{tree}\n`).join(''))
    .run();
  const lines = stdout.toString('utf8').split('\n');
  return new Map(unique.map((sha, i) => [sha, lines[i] ?? '']));
}

/** commit-tree with an author kept verbatim (name, email, raw date and zone) and a new committer. */
async function commitPicked(repoPath: string, tree: string, parent: string, commit: ReplayCommit, committer: Identity): Promise<string> {
  const seconds = Math.floor((committer.date ?? new Date()).getTime() / 1000);
  const { stdout } = await git(repoPath)
    .sub('commit-tree')
    .option('-p', parent)
    .flag('-F', '-')
    .objectIds(tree)
    .env({
      GIT_AUTHOR_NAME: commit.authorName,
      GIT_AUTHOR_EMAIL: commit.authorEmail,
      GIT_AUTHOR_DATE: `@${commit.authorDate}`,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      GIT_COMMITTER_DATE: `@${seconds} +0000`,
    })
    .input(commit.message)
    .run();
  return stdout.toString('utf8').trim();
}

/** Replays `head`'s own commits onto `onto` in `repoPath` (which must hold both). */
export async function replayCommits(repoPath: string, input: { onto: string; head: string; committer: Identity }): Promise<RebaseResult> {
  if (await isAncestor(repoPath, input.onto, input.head)) return { kind: 'up-to-date' };
  const commits = await commitsToReplay(repoPath, input.onto, input.head);
  let base = input.onto;
  let [baseTree] = (await treesOf(repoPath, [base])).values();
  let picked = 0;
  for (const commit of commits) {
    // A cherry-pick: merge the new base's tree and the commit's on the commit's parent.
    const result = await mergeTreesOnBase(repoPath, { base: commit.parent, oursTree: baseTree!, theirsTree: commit.tree, identity: input.committer });
    if (!result.clean) return { kind: 'conflict', commit: commit.id, paths: result.conflicts };
    // A commit whose changes are already in the new base is dropped; one that was empty to begin with is kept (git rebase's defaults).
    if (result.tree === baseTree && commit.tree !== commit.parentTree) continue;
    base = await commitPicked(repoPath, result.tree, base, commit, input.committer);
    baseTree = result.tree;
    picked++;
  }
  return { kind: 'rebased', head: base, picked, dropped: commits.length - picked };
}
