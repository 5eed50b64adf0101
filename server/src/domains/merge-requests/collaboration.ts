import type { Visibility } from '@tributary/contracts';
import type { ProtectedBranch } from '../protected-branches/protected-branch.js';
import { canMergeIntoBranch, protectionsFor, type PusherFacts } from '../protected-branches/push-rules.js';

/**
 * GitLab's "Allow commits from members who can merge to the target branch"
 * (MergeRequest#collaborative_push_possible?, Project#branch_allows_collaboration?).
 * An open merge request from a fork's branch, with `allow_collaboration` set by
 * someone who can push to the fork, lets every user who may merge into its target
 * branch (canMergeIntoBranch, the rule the merge itself applies) add commits to that one source branch: not create it, not delete it, not
 * force-push it, and no other branch or tag of the fork. Pure; the facts are loaded
 * by collaboration.service.ts and the decision is applied by checkBranchUpdate.
 */

/** GitLab: both projects public or internal, a real fork, and the source branch unprotected. */
export function collaborationPossible(facts: {
  sourceProjectId: number;
  targetProjectId: number;
  sourceVisibility: Visibility;
  targetVisibility: Visibility;
  sourceBranchProtected: boolean;
}): boolean {
  return (
    facts.sourceProjectId !== facts.targetProjectId &&
    facts.sourceVisibility !== 'private' &&
    facts.targetVisibility !== 'private' &&
    !facts.sourceBranchProtected
  );
}

/** One merge request whose source is the project being written to, with what the rule needs about its target. */
export interface CollaborationCandidate {
  state: string;
  allowCollaboration: boolean;
  sourceBranch: string;
  targetProjectId: number;
  targetBranch: string;
  targetVisibility: Visibility;
  targetArchived: boolean;
  /** the caller on the target project */
  merger: PusherFacts;
  targetProtections: readonly ProtectedBranch[];
}

/** The branches of `source` that the caller may add commits to through merge requests allowing collaboration. */
export function collaborationBranches(
  source: { id: number; visibility: Visibility },
  sourceProtections: readonly ProtectedBranch[],
  candidates: readonly CollaborationCandidate[],
): string[] {
  const granted = new Set<string>();
  for (const mr of candidates) {
    if (mr.state !== 'opened' || !mr.allowCollaboration) continue;
    const possible = collaborationPossible({
      sourceProjectId: source.id,
      targetProjectId: mr.targetProjectId,
      sourceVisibility: source.visibility,
      targetVisibility: mr.targetVisibility,
      sourceBranchProtected: protectionsFor(mr.sourceBranch, [...sourceProtections]).length > 0,
    });
    if (possible && canMergeIntoBranch(mr.merger, mr.targetBranch, mr.targetProtections, mr.targetArchived)) granted.add(mr.sourceBranch);
  }
  return [...granted];
}

/** The update rule itself lives with the push rules that apply it (so they import nothing from here). */
export { collaborationAllowsUpdate } from '../protected-branches/push-rules.js';
