import { AccessLevel } from '@tributary/contracts';
import type { AccessKind, ProtectedBranch } from './protected-branch.js';
import { matchesBranchPattern } from './branch-pattern.js';

/**
 * Pure rules for what a push may do to a branch. The pre-receive hook asks
 * the server, which loads the facts and calls `checkRefUpdate`.
 */
export const PUSH_MESSAGES = {
  notAllowed: 'You are not allowed to push code to this project.',
  protectedPush: 'You are not allowed to push code to protected branches on this project.',
  protectedForce: 'You are not allowed to force push code to a protected branch on this project.',
  protectedDelete: 'You can only delete protected branches using the web interface.',
  protectedCreate: 'You are not allowed to create protected branches on this project.',
} as const;

export interface PusherFacts {
  userId: number;
  isAdmin: boolean;
  /** effective access level on the project */
  accessLevel: number;
  /** ids of groups the user belongs to (for group-based rules) */
  groupIds?: number[];
  /**
   * branches a caller without push rights may still add commits to, through open merge
   * requests that allow collaboration (domains/merge-requests/collaboration.ts)
   */
  collaborationBranches?: readonly string[];
}

export interface RefUpdateFacts {
  /** branch name (without refs/heads/) */
  branch: string;
  creating: boolean;
  deleting: boolean;
  /** the new commit does not contain the old one */
  forced: boolean;
}

export function protectionsFor(branch: string, all: ProtectedBranch[]): ProtectedBranch[] {
  return all.filter((rule) => matchesBranchPattern(rule.name, branch));
}

/** Does any matching protection grant `kind` to the user? The most permissive rule wins, as in GitLab. */
export function isAllowed<K extends string = AccessKind>(
  kind: K,
  pusher: PusherFacts,
  matching: ReadonlyArray<{ rules: ReadonlyArray<{ kind: K; access_level: number | null; user_id: number | null; group_id: number | null }> }>,
): boolean {
  return matching.some((protection) =>
    protection.rules.some((rule) => {
      if (rule.kind !== kind) return false;
      if (rule.user_id !== null) return rule.user_id === pusher.userId && pusher.accessLevel >= AccessLevel.Developer;
      if (rule.group_id !== null) return (pusher.groupIds ?? []).includes(rule.group_id);
      if (rule.access_level === AccessLevel.NoAccess || rule.access_level === null) return false;
      if (rule.access_level === AccessLevel.Admin) return pusher.isAdmin;
      return pusher.isAdmin || pusher.accessLevel >= rule.access_level;
    }),
  );
}

/**
 * "May merge into this branch", the one rule every surface asks (the merge itself, REST
 * `user.can_merge`, the widget's `canMerge`, collaboration): GitLab's
 * MergeRequest#can_be_merged_by?, i.e. UserAccess#can_update_branch?. The user needs push
 * access to the project (Developer or an administrator, the project not archived); a protected
 * branch must then grant them its push rule or its merge rule.
 */
export function canMergeIntoBranch(merger: PusherFacts, branch: string, protections: readonly ProtectedBranch[], archived: boolean): boolean {
  if (archived || (!merger.isAdmin && merger.accessLevel < AccessLevel.Developer)) return false;
  const matching = protectionsFor(branch, [...protections]);
  return matching.length === 0 || isAllowed('push', merger, matching) || isAllowed('merge', merger, matching);
}

/**
 * May a caller without push rights on the project make this update through collaboration?
 * Only fast-forwarding a granted branch that exists: creating, deleting and force-pushing
 * stay with the fork's own members (the server-side rebase is the one rewrite it allows).
 */
export function collaborationAllowsUpdate(branches: readonly string[], update: RefUpdateFacts): boolean {
  return branches.includes(update.branch) && !update.creating && !update.deleting && !update.forced;
}

/** Returns the refusal message for one branch update, or null when it is allowed. */
export function checkBranchUpdate(pusher: PusherFacts, update: RefUpdateFacts, protections: ProtectedBranch[]): string | null {
  if (!pusher.isAdmin && pusher.accessLevel < AccessLevel.Developer && !collaborationAllowsUpdate(pusher.collaborationBranches ?? [], update)) return PUSH_MESSAGES.notAllowed;
  const matching = protectionsFor(update.branch, protections);
  if (matching.length === 0) return null;
  if (update.deleting) return PUSH_MESSAGES.protectedDelete;
  if (update.creating) {
    return isAllowed('push', pusher, matching) || isAllowed('merge', pusher, matching) ? null : PUSH_MESSAGES.protectedCreate;
  }
  if (update.forced && !matching.some((protection) => protection.allow_force_push)) return PUSH_MESSAGES.protectedForce;
  return isAllowed('push', pusher, matching) ? null : PUSH_MESSAGES.protectedPush;
}
