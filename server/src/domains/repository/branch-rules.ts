/**
 * Pure rules for branches and tags as GitLab's API presents them: name search,
 * the protection flags of the branch entity, and who may delete a branch.
 * The facts (refs, protections, access level) are loaded by branches.service.ts.
 */
import { t, AccessLevel } from '@tributary/contracts';
import { checkBranchUpdate, protectionsFor, type PusherFacts } from '../protected-branches/push-rules.js';
import type { ProtectedBranch } from '../protected-branches/protected-branch.js';

/** GitLab's wording (lib/gitlab/checks/branch_check.rb, app/services/branches/*). */
export const BRANCH_MESSAGES = {
  invalidName: 'Branch name is invalid',
  exists: 'Branch already exists',
  invalidRef: 'Invalid reference name: %{ref}',
  hierarchyConflict: "Failed to create branch '%{branch}': Branch name conflicts with existing branch hierarchy.",
  deleteDefault: 'The default branch of a project cannot be deleted.',
  deleteProtected: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
} as const;

/**
 * GitLab's BranchesFinder/TagsFinder search, without regular expressions: `^abc`
 * keeps names starting with abc, `abc$` names ending with it, anything else
 * names containing it; case-insensitive; an exact (case-insensitive) match is listed first.
 */
export function searchByName<T extends { name: string }>(items: readonly T[], search: string | undefined): T[] {
  if (search === undefined || search === '') return [...items];
  if (search.startsWith('^')) {
    const prefix = search.slice(1).toUpperCase();
    return items.filter((item) => item.name.toUpperCase().startsWith(prefix));
  }
  if (search.endsWith('$')) {
    const suffix = search.slice(0, -1).toUpperCase();
    return items.filter((item) => item.name.toUpperCase().endsWith(suffix));
  }
  const needle = search.toUpperCase();
  const matches = items.filter((item) => item.name.toUpperCase().includes(needle));
  const exact = matches.findIndex((item) => item.name.toUpperCase() === needle);
  if (exact > 0) matches.unshift(...matches.splice(exact, 1));
  return matches;
}

export interface ProtectionFlags {
  protected: boolean;
  developers_can_push: boolean;
  developers_can_merge: boolean;
}

const grantsDevelopers = (kind: 'push' | 'merge', matching: readonly ProtectedBranch[]) =>
  matching.some((protection) => protection.rules.some((rule) => rule.kind === kind && rule.access_level === AccessLevel.Developer));

/** The branch entity's protection fields (GitLab: ProtectedBranch.protected? / developers_can?). */
export function protectionFlags(branch: string, protections: readonly ProtectedBranch[]): ProtectionFlags {
  const matching = protectionsFor(branch, [...protections]);
  return {
    protected: matching.length > 0,
    developers_can_push: grantsDevelopers('push', matching),
    developers_can_merge: grantsDevelopers('merge', matching),
  };
}

/**
 * GitLab's `can_push_to_branch?`: a caller with push rights may push to an
 * unprotected branch; a protected one needs a matching push rule. `pusher` is
 * null for anonymous callers and those without push_code.
 */
export function canPushToBranch(pusher: PusherFacts | null, branch: string, protections: readonly ProtectedBranch[]): boolean {
  if (!pusher) return false;
  return checkBranchUpdate(pusher, { branch, creating: false, deleting: false, forced: false }, [...protections]) === null;
}

/** May the caller create `branch`? (push or merge rights on a matching protection, as git pushes). */
export function branchCreationRefusal(pusher: PusherFacts, branch: string, protections: readonly ProtectedBranch[]): string | null {
  return checkBranchUpdate(pusher, { branch, creating: true, deleting: false, forced: false }, [...protections]);
}

export type DeletionRefusal = { kind: 'default'; message: string } | { kind: 'protected'; message: string };

/**
 * Deleting through the API (GitLab's "web" protocol): never the default branch;
 * a protected branch only by a Maintainer, Owner or admin.
 */
export function branchDeletionRefusal(
  pusher: PusherFacts,
  branch: string,
  defaultBranch: string,
  protections: readonly ProtectedBranch[],
): DeletionRefusal | null {
  if (branch === defaultBranch) return { kind: 'default', message: t(BRANCH_MESSAGES.deleteDefault) };
  const matching = protectionsFor(branch, [...protections]);
  if (matching.length === 0) return null;
  if (pusher.isAdmin || pusher.accessLevel >= AccessLevel.Maintainer) return null;
  return { kind: 'protected', message: t(BRANCH_MESSAGES.deleteProtected) };
}

/** GitLab's `merged`: the tip is reachable from the default branch and is not its tip. */
export function isMerged(branchSha: string, defaultSha: string | null, reachableFromDefault: boolean): boolean {
  return defaultSha !== null && branchSha !== defaultSha && reachableFromDefault;
}
