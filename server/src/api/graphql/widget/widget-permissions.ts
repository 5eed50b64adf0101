import { canUpdateMergeRequest, type ProjectAction } from '../../../auth/permissions.js';
import type { MergeRequestState } from '../../../domains/merge-requests/merge-request.js';

/**
 * What the caller may do from the merge widget (GitLab's MergeRequestPermissions), from
 * facts the view loads through the one authorizer and the protected-branch rules. Pure.
 */
export interface WidgetPermissionFacts {
  signedIn: boolean;
  isAuthor: boolean;
  state: MergeRequestState;
  /** abilities on the target project (from the authorizer) */
  target: ReadonlySet<ProjectAction>;
  /** abilities on the source project; null when the caller cannot see it or it is gone */
  source: ReadonlySet<ProjectAction> | null;
  /** the caller may merge into the target branch (canMergeIntoBranch, the rule the merge itself applies) */
  mayMergeIntoTarget: boolean;
  /** the source branch's protection lets the caller push (true when unprotected) */
  pushAllowedOnSource: boolean;
  sourceBranchProtected: boolean;
  sourceIsDefaultBranch: boolean;
  /** the source branch still points at the merge request's head */
  sourceAtHead: boolean;
  allowCollaboration: boolean;
  /** the merge, squash or fast-forwarded commit of a merged request */
  mergedCommitSha: string | null;
}

export interface WidgetPermissions {
  canMerge: boolean;
  removeSourceBranch: boolean;
  updateMergeRequest: boolean;
  adminMergeRequest: boolean;
  pushToSourceBranch: boolean;
  revertOnCurrentMergeRequest: boolean;
  cherryPickOnCurrentMergeRequest: boolean;
  readMergeRequest: boolean;
}

export function widgetPermissions(facts: WidgetPermissionFacts): WidgetPermissions {
  const { signedIn, target, source } = facts;
  // MergeRequest#can_be_merged_by?, decided by canMergeIntoBranch.
  const canMerge = signedIn && facts.mayMergeIntoTarget;
  const pushToSource = signedIn && source !== null && source.has('push_code') && facts.pushAllowedOnSource;
  // Revert and cherry-pick open a new branch: in the project, or in a fork when the user cannot push.
  const collaborate = signedIn && (target.has('push_code') || target.has('fork_project'));
  const pickable = facts.state === 'merged' && facts.mergedCommitSha !== null && collaborate;
  return {
    canMerge,
    // MergeRequest#can_remove_source_branch?
    removeSourceBranch: pushToSource && !facts.sourceBranchProtected && !facts.sourceIsDefaultBranch && facts.sourceAtHead,
    updateMergeRequest: signedIn && canUpdateMergeRequest(target, facts.isAuthor),
    adminMergeRequest: signedIn && target.has('update_merge_request'),
    // A fork's branch takes pushes from the target's mergers when the author allows collaboration.
    pushToSourceBranch: pushToSource || (facts.allowCollaboration && canMerge),
    revertOnCurrentMergeRequest: pickable,
    cherryPickOnCurrentMergeRequest: pickable,
    readMergeRequest: target.has('read_merge_request'),
  };
}
