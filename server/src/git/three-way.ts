/**
 * A three-way merge of two trees on a base the caller chooses, without a work tree: what
 * cherry-pick (base = the commit's parent) and revert (base = the commit itself) need.
 *
 * git 2.39 has no `merge-tree --merge-base` (2.40), and merge-tree picks the merge base from
 * history. So each side becomes an ephemeral commit carrying its tree with `base` as its only
 * parent: the two then have exactly `base` as their merge base. The ephemeral commits are
 * never referenced (gc removes them).
 */
import { EMPTY_TREE_SHA1 } from './diff.js';
import { mergeTree, type MergeTreeResult } from './merge-tree.js';
import { commitTree, type Identity } from './plumbing-write.js';

export interface ThreeWayInput {
  /** The commit whose tree is the merge base, or null for none (an empty base). */
  base: string | null;
  oursTree: string;
  theirsTree: string;
  /** Identity of the ephemeral commits (never seen by users). */
  identity: Identity;
}

export async function mergeTreesOnBase(repoPath: string, input: ThreeWayInput): Promise<MergeTreeResult> {
  const parents = input.base ? [input.base] : [];
  const side = (tree: string, message: string) => commitTree(repoPath, { tree, parents, message, author: input.identity, committer: input.identity });
  const [ours, theirs] = await Promise.all([side(input.oursTree, 'three-way ours\n'), side(input.theirsTree, 'three-way theirs\n')]);
  const result = await mergeTree(repoPath, ours, theirs, { allowUnrelatedHistories: input.base === null });
  // Both sides are commits just written, so merge-tree cannot fail to resolve them.
  if (!result) throw new Error('merge-tree did not resolve the ephemeral commits');
  return result;
}

export type PickMode = 'cherry-pick' | 'revert';

export type PickResult = { kind: 'clean'; tree: string } | { kind: 'empty' } | { kind: 'conflict'; paths: string[] };

/**
 * Applies `commit` (cherry-pick) or its inverse (revert) onto `ontoTree`. A merge commit is
 * taken relative to its first parent (GitLab's mainline 1). `parentTree` is null for a root
 * commit. A result equal to `ontoTree` is 'empty': nothing would change.
 */
export async function applyCommitToTree(
  repoPath: string,
  input: { mode: PickMode; commit: string; commitTree: string; parent: string | null; parentTree: string | null; ontoTree: string; identity: Identity },
): Promise<PickResult> {
  const result =
    input.mode === 'cherry-pick'
      ? await mergeTreesOnBase(repoPath, { base: input.parent, oursTree: input.ontoTree, theirsTree: input.commitTree, identity: input.identity })
      : await revertMerge(repoPath, input);
  if (!result.clean) return { kind: 'conflict', paths: result.conflicts };
  if (result.tree === input.ontoTree) return { kind: 'empty' };
  return { kind: 'clean', tree: result.tree };
}

/** Revert: base is the commit, theirs is its parent's tree (the empty tree for a root commit). */
async function revertMerge(repoPath: string, input: { commit: string; parentTree: string | null; ontoTree: string; identity: Identity }): Promise<MergeTreeResult> {
  return mergeTreesOnBase(repoPath, { base: input.commit, oursTree: input.ontoTree, theirsTree: input.parentTree ?? EMPTY_TREE_SHA1, identity: input.identity });
}
