/**
 * The git side of a merge, with plumbing in the target repository and no work tree:
 * `merge-tree --write-tree` for the merged tree, `commit-tree` for the squash and merge
 * commits. Nothing here moves a ref; the service moves the target branch by compare-and-swap
 * once the intent is recorded. Commits written for a merge that never lands are unreachable
 * objects that `git gc` removes.
 */
import { commitTree, isAncestor, mergeBase, mergeTree, readCommitLinks, treeOf, type Identity, type MergeTreeResult } from '../../../git/index.js';
import { mergeShape, requiresFastForwardPossible, type MergeMethod } from './merge-plan.js';

/** What the checks need from git, against the exact target tip the merge will be built on. */
export interface LiveGitFacts {
  /** the method needs the target to be an ancestor of the head, and it is not */
  needRebase: boolean;
  /** the trial merge of head into target conflicts */
  conflict: boolean;
  /** the trial merge (reused for the merge commit when nothing is squashed) */
  trial: MergeTreeResult | null;
}

export interface BuildMergeInput {
  target: string;
  head: string;
  method: MergeMethod;
  squash: boolean;
  trial: MergeTreeResult | null;
  mergeMessage: string;
  squashMessage: string;
  /** author and committer of the merge commit; committer of the squash commit */
  merger: Identity;
  /** author of the squash commit (GitLab: the merge request's author) */
  squashAuthor: Identity;
}

export interface BuiltMerge {
  /** what the target branch will point at */
  newTarget: string;
  mergeCommitSha: string | null;
  squashCommitSha: string | null;
}

export class MergeConflictError extends Error {
  constructor(readonly paths: string[]) {
    super(`merge conflicts in ${paths.length} file(s)`);
  }
}

/** The trial merge the mergeability check left at refs/merge-requests/:iid/merge. */
export interface StoredTrialMerge {
  /** the merge ref's value now, read from the repository */
  mergeRefTip: string | null;
  /** the trial merge commit the check recorded in the database (merge_requests.merge_ref_sha) */
  recorded: string | null;
}

/**
 * The trial merge's result for exactly these tips, without running merge-tree again: the
 * merge ref names the commit the check recorded, and that commit's parents are `target` and
 * `head`. merge-tree's result depends only on the two commits, so that commit's tree is the
 * tree it would write now. The ref and the database must agree (nobody but the check writes
 * either: pushes to refs/merge-requests/ are refused) and the commit itself must name both
 * parents; otherwise null, and the caller runs merge-tree. One object read through the
 * long-lived cat-file reader, instead of a git process and a merge-base search.
 */
export async function reusableTrialMerge(repoPath: string, stored: StoredTrialMerge, target: string, head: string): Promise<MergeTreeResult | null> {
  if (stored.recorded === null || stored.mergeRefTip !== stored.recorded) return null;
  const links = await readCommitLinks(repoPath, stored.recorded).catch(() => null);
  if (!links || links.parents.length !== 2 || links.parents[0] !== target || links.parents[1] !== head) return null;
  return { clean: true, tree: links.tree, conflicts: [] };
}

export async function liveGitFacts(repoPath: string, target: string, head: string, method: MergeMethod, stored?: StoredTrialMerge): Promise<LiveGitFacts> {
  if (requiresFastForwardPossible(method)) {
    // When the target is an ancestor, the merge is the head's tree: nothing can conflict.
    if (await isAncestor(repoPath, target, head)) return { needRebase: false, conflict: false, trial: null };
    const trial = await mergeTree(repoPath, target, head).catch(() => null);
    return { needRebase: true, conflict: !trial?.clean, trial };
  }
  const reused = stored ? await reusableTrialMerge(repoPath, stored, target, head) : null;
  const trial = reused ?? (await mergeTree(repoPath, target, head).catch(() => null));
  return { needRebase: false, conflict: !trial?.clean, trial };
}

/** The request's changes as one commit on top of the merge base (GitLab's UserSquash). */
async function squashCommit(repoPath: string, input: BuildMergeInput): Promise<string> {
  const base = await mergeBase(repoPath, input.target, input.head);
  if (!base) throw new MergeConflictError([]);
  const tree = await treeOf(repoPath, input.head);
  return commitTree(repoPath, { tree, parents: [base], message: input.squashMessage, author: input.squashAuthor, committer: input.merger });
}

/** Writes the squash and merge commits the method asks for; returns what the target should become. */
export async function buildMerge(repoPath: string, input: BuildMergeInput): Promise<BuiltMerge> {
  const shape = mergeShape(input.method, input.squash);
  const squashCommitSha = shape.squash ? await squashCommit(repoPath, input) : null;
  const merged = squashCommitSha ?? input.head;
  if (!shape.mergeCommit) return { newTarget: merged, mergeCommitSha: null, squashCommitSha };

  let tree: string;
  if (requiresFastForwardPossible(input.method)) {
    // Semi-linear history: the target is an ancestor of the head, so the merge is its tree.
    tree = await treeOf(repoPath, merged);
  } else {
    const result = squashCommitSha === null && input.trial ? input.trial : await mergeTree(repoPath, input.target, merged);
    if (!result?.clean) throw new MergeConflictError(result?.conflicts ?? []);
    tree = result.tree;
  }
  const mergeCommitSha = await commitTree(repoPath, { tree, parents: [input.target, merged], message: input.mergeMessage, author: input.merger, committer: input.merger });
  return { newTarget: mergeCommitSha, mergeCommitSha, squashCommitSha };
}
