/**
 * Rebase with plumbing, no work tree: each commit of `onto...head` (as `git rebase` picks
 * them: no merges, none whose patch is already upstream, oldest first) is cherry-picked onto
 * the new base and committed with its author, author date and message kept; the caller then
 * moves the branch by compare-and-swap.
 *
 * git 2.39 has neither `git replay` nor `merge-tree --merge-base` (2.40), so a cherry-pick is
 * done as git does it: a three-way merge of the new base and the commit with the commit's
 * parent as the base (see pick() below). Git processes: three before the first commit
 * (is-ancestor, log, cat-file), then three per commit (an ephemeral commit, merge-tree, the
 * picked commit), the last of which runs beside the next commit's merge.
 */
import { git } from '../../../git/command.js';
import { commitTree, isAncestor, mergeTree, treesOf, type Identity, type MergeTreeResult } from '../../../git/index.js';

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
function parseReplayLog(stdout: string): Array<Omit<ReplayCommit, 'parentTree'>> {
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

/** The commits `git rebase onto` would replay from `head`, oldest first, and the tree of `onto`. */
async function commitsToReplay(repoPath: string, onto: string, head: string): Promise<{ commits: ReplayCommit[]; ontoTree: string }> {
  const { stdout } = await git(repoPath)
    .sub('log')
    .flag('-z', '--reverse', '--topo-order', '--no-merges', '--cherry-pick', '--right-only', '--date=raw', FORMAT)
    .revisions(`${onto}...${head}`)
    .run();
  const commits = parseReplayLog(stdout.toString('utf8'));
  // Most parents are replayed commits whose trees the log gave; the rest (the first commit's
  // parent, commits --cherry-pick left out) are read with onto's tree in one call.
  const trees = new Map(commits.map((commit) => [commit.id, commit.tree]));
  const unread = [...new Set(commits.flatMap((commit) => (commit.parent !== null && !trees.has(commit.parent) ? [commit.parent] : [])))];
  const [ontoTree, ...unreadTrees] = await treesOf(repoPath, [onto, ...unread]);
  unread.forEach((sha, i) => trees.set(sha, unreadTrees[i]!));
  return { ontoTree: ontoTree!, commits: commits.map((commit) => ({ ...commit, parentTree: commit.parent ? trees.get(commit.parent)! : null })) };
}

/**
 * A cherry-pick of `commit` onto `baseTree`: merge-tree of an ephemeral commit holding
 * `baseTree` on the commit's parent, and the commit itself. Both have that parent as their
 * only parent (merges are never replayed), so it is their merge base, as a cherry-pick needs
 * (git/three-way.ts writes both sides as ephemeral commits; here the commit is one already).
 * The ephemeral commit is never referenced (gc removes it).
 */
async function pick(repoPath: string, commit: ReplayCommit, baseTree: string, identity: Identity): Promise<MergeTreeResult> {
  const parents = commit.parent ? [commit.parent] : [];
  const ours = await commitTree(repoPath, { tree: baseTree, parents, message: 'rebase base\n', author: identity, committer: identity });
  const result = await mergeTree(repoPath, ours, commit.id, { allowUnrelatedHistories: commit.parent === null });
  // Both are commits in the repository, so merge-tree cannot fail to resolve them.
  if (!result) throw new Error('merge-tree did not resolve the commit to replay');
  return result;
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
  const { commits, ontoTree } = await commitsToReplay(repoPath, input.onto, input.head);
  // The next merge needs only the last tree, not the last commit: the picked commits are
  // written in a chain that runs beside the merges. Awaited before any return, so its
  // failure is the rebase's; the catch only keeps it from counting as unhandled meanwhile.
  let base: Promise<string> = Promise.resolve(input.onto);
  let baseTree = ontoTree;
  let picked = 0;
  for (const commit of commits) {
    const result = await pick(repoPath, commit, baseTree, input.committer);
    if (!result.clean) {
      await base;
      return { kind: 'conflict', commit: commit.id, paths: result.conflicts };
    }
    // A commit whose changes are already in the new base is dropped; one that was empty to begin with is kept (git rebase's defaults).
    if (result.tree === baseTree && commit.tree !== commit.parentTree) continue;
    const tree = result.tree;
    base = base.then((parent) => commitPicked(repoPath, tree, parent, commit, input.committer));
    base.catch(() => undefined);
    baseTree = tree;
    picked++;
  }
  return { kind: 'rebased', head: await base, picked, dropped: commits.length - picked };
}
