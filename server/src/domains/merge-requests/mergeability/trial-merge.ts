/**
 * The trial merge (GitLab's MergeToRefService + UserMergeToRef): the version's head merged
 * into the target tip with plumbing only (merge-tree --write-tree, commit-tree), kept at
 * refs/merge-requests/:iid/merge in the target repository and moved by compare-and-swap.
 * Beside it, in parallel, one history walk counts how far the branches diverged (the
 * widget's "%d commit behind", NEED_REBASE): the walk costs as much as merge-tree's own
 * merge-base search on a long history, so running them one after the other would double
 * the time (bench/README.md, "Mergeability").
 */
import { assertObjectId } from '../../../git/command.js';
import { commitTree, deleteRef, git, GitCommandError, mergeTree, readRefTips, updateRef, type Identity } from '../../../git/index.js';

export const mergeRefName = (iid: number) => `refs/merge-requests/${iid}/merge`;

export interface BranchTips {
  /** null: the branch does not exist */
  source: string | null;
  target: string | null;
  /** refs/merge-requests/:iid/merge now */
  mergeRef: string | null;
}

export { parseRefTips } from '../../../git/ref-files.js';

/** The branch tips and the merge ref, read from the repositories' ref files (git/ref-files.ts). */
export async function readBranchTips(input: { targetRepo: string; sourceRepo: string | null; sourceBranch: string; targetBranch: string; iid: number }): Promise<BranchTips> {
  const source = `refs/heads/${input.sourceBranch}`;
  const target = `refs/heads/${input.targetBranch}`;
  const merge = mergeRefName(input.iid);
  if (input.sourceRepo === input.targetRepo) {
    const tips = await readRefTips(input.targetRepo, [source, target, merge]);
    return { source: tips.get(source) ?? null, target: tips.get(target) ?? null, mergeRef: tips.get(merge) ?? null };
  }
  const [targetTips, sourceTips] = await Promise.all([
    readRefTips(input.targetRepo, [target, merge]),
    input.sourceRepo === null ? new Map<string, string>() : readRefTips(input.sourceRepo, [source]),
  ]);
  return { source: sourceTips.get(source) ?? null, target: targetTips.get(target) ?? null, mergeRef: targetTips.get(merge) ?? null };
}

/** `rev-list --count` prints one number. Pure. */
export function parseCount(stdout: string): number | null {
  const match = /^(\d+)\s*$/.exec(stdout);
  return match ? Number(match[1]) : null;
}

/**
 * Commits the target has that the head lacks (`rev-list --count head..target`, the cheaper
 * of the one-sided walks); null when git cannot tell.
 */
export async function divergedCommits(repoPath: string, target: string, head: string): Promise<number | null> {
  const range = `${assertObjectId(head)}..${assertObjectId(target)}`;
  const result = await git(repoPath).sub('rev-list').flag('--count').revisions(range).exec();
  if (result.exitCode !== 0) return null;
  return parseCount(result.stdout.toString('utf8'));
}

export interface TrialMergeInput {
  repoPath: string;
  iid: number;
  target: string;
  head: string;
  /** the merge ref's current value, for the compare-and-swap */
  currentMergeRef: string | null;
  message: string;
  /** who the merge commit names; a promise is awaited only once the merge is known to be clean */
  identity: Identity | Promise<Identity>;
}

export interface TrialMergeResult {
  clean: boolean;
  /** conflicted paths when not clean (empty for unrelated histories) */
  conflicts: string[];
  /** the merge commit now at the merge ref; null when not clean (the ref is then removed) */
  mergeRefSha: string | null;
  divergedCommitsCount: number | null;
}

/** merge-tree, but unrelated histories and vanished commits are "cannot be merged", not errors. */
async function tryMergeTree(repoPath: string, target: string, head: string) {
  try {
    return await mergeTree(repoPath, target, head);
  } catch (error) {
    if (error instanceof GitCommandError) return null;
    throw error;
  }
}

/**
 * Merges `head` into `target` and points the merge ref at the result (or removes it on a
 * conflict). Throws RefConflictError when the merge ref moved since `currentMergeRef` was
 * read; the caller reads again and retries.
 */
export async function runTrialMerge(input: TrialMergeInput): Promise<TrialMergeResult> {
  const ref = mergeRefName(input.iid);
  const [merged, divergedCommitsCount] = await Promise.all([tryMergeTree(input.repoPath, input.target, input.head), divergedCommits(input.repoPath, input.target, input.head)]);
  if (!merged?.clean) {
    Promise.resolve(input.identity).catch(() => undefined); // not needed: no unhandled rejection either
    if (input.currentMergeRef !== null) await deleteRef(input.repoPath, ref, input.currentMergeRef);
    return { clean: false, conflicts: merged?.conflicts ?? [], mergeRefSha: null, divergedCommitsCount };
  }
  const identity = await input.identity;
  const sha = await commitTree(input.repoPath, { tree: merged.tree, parents: [input.target, input.head], message: input.message, author: identity, committer: identity });
  await updateRef(input.repoPath, ref, sha, input.currentMergeRef);
  return { clean: true, conflicts: [], mergeRefSha: sha, divergedCommitsCount };
}

/** Removes a merge ref left from an earlier result (a branch went missing); CAS like every ref change. */
export async function removeMergeRef(repoPath: string, iid: number, current: string | null): Promise<void> {
  if (current !== null) await deleteRef(repoPath, mergeRefName(iid), current);
}
