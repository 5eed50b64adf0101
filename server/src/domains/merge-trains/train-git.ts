/**
 * The git side of a merge train car: its train commit, written with plumbing in the target
 * repository (no work tree), and its train ref moved by compare-and-swap.
 *
 * The train commit is exactly what the target branch becomes when the car merges: the car's
 * head merged onto its base (the car ahead's train commit, or the target tip) by the project's
 * merge method. For fast-forward and semi-linear projects the head's commits are first
 * replayed onto the base (GitLab's trains rebase too), then squashed or merged as a merge
 * would. Its pipeline tests that commit, and the merge fast-forwards the target to it.
 */
import { readRefTips, RefConflictError, updateRef, type Identity } from '../../git/index.js';
import { buildMerge, MergeConflictError, type BuiltMerge } from '../merge-requests/merging/merge-git.js';
import { requiresFastForwardPossible, type MergeMethod } from '../merge-requests/merging/merge-plan.js';
import { replayCommits } from '../merge-requests/merging/rebase-git.js';

export interface TrainCommitInput {
  base: string;
  head: string;
  method: MergeMethod;
  squash: boolean;
  mergeMessage: string;
  squashMessage: string;
  merger: Identity;
  squashAuthor: Identity;
}

/** The car's train commit, or null when its head does not merge cleanly onto the base. */
export async function buildTrainCommit(repoPath: string, input: TrainCommitInput): Promise<BuiltMerge | null> {
  let head = input.head;
  if (requiresFastForwardPossible(input.method)) {
    const replayed = await replayCommits(repoPath, { onto: input.base, head, committer: input.merger });
    if (replayed.kind === 'conflict') return null;
    if (replayed.kind === 'rebased') head = replayed.head;
  }
  try {
    return await buildMerge(repoPath, {
      target: input.base,
      head,
      method: input.method,
      squash: input.squash,
      trial: null,
      mergeMessage: input.mergeMessage,
      squashMessage: input.squashMessage,
      merger: input.merger,
      squashAuthor: input.squashAuthor,
    });
  } catch (error) {
    if (error instanceof MergeConflictError) return null;
    throw error;
  }
}

/** Ref tips of one repository, null when a ref is absent. */
export async function tipsOf(repoPath: string, refs: readonly string[]): Promise<Map<string, string | null>> {
  const found = await readRefTips(repoPath, refs);
  return new Map(refs.map((ref) => [ref, found.get(ref) ?? null]));
}

/** Points `ref` at `sha` if it still holds `expected` (null: absent); false when something else moved it. */
export async function swapRef(repoPath: string, ref: string, sha: string, expected: string | null): Promise<boolean> {
  try {
    await updateRef(repoPath, ref, sha, expected);
    return true;
  } catch (error) {
    if (error instanceof RefConflictError) return false;
    throw error;
  }
}
