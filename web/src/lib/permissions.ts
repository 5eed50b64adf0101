import type { Branch, Project } from './gitlab-types';
import { AccessLevel } from '@tributary/contracts/access-levels';

/**
 * What the pages show or hide. The server decides (and answers 404/403); these
 * rules only keep buttons away from people who could not use them. Numbers are
 * GitLab's access levels.
 */
export const GUEST = AccessLevel.Guest;
export const REPORTER = AccessLevel.Reporter;
export const DEVELOPER = AccessLevel.Developer;
export const MAINTAINER = AccessLevel.Maintainer;
export const OWNER = AccessLevel.Owner;

/** The caller's effective level in a project: the higher of direct and group access; admins act as owners. */
export function projectAccessLevel(project: Pick<Project, 'permissions'>, isAdmin = false): number {
  if (isAdmin) return OWNER;
  const direct = project.permissions?.project_access?.access_level ?? 0;
  const group = project.permissions?.group_access?.access_level ?? 0;
  return Math.max(direct, group);
}

export function canCreateBranch(level: number): boolean {
  return level >= DEVELOPER;
}

/** GitLab: the default branch cannot be deleted; protected branches need a maintainer. */
export function canDeleteBranch(branch: Pick<Branch, 'default' | 'protected' | 'can_push'>, level: number): boolean {
  if (branch.default) return false;
  if (branch.protected) return level >= MAINTAINER;
  return level >= DEVELOPER || branch.can_push;
}

export function canManageProjectMembers(level: number): boolean {
  return level >= MAINTAINER;
}

/** Only owners may assign the Owner role in a project. */
export function assignableLevels(levels: readonly number[], level: number): number[] {
  return levels.filter((candidate) => candidate <= Math.max(level, MAINTAINER) && (candidate < OWNER || level >= OWNER));
}

/** GitLab's update_merge_request: Developers of the target project, and the author. */
export function canUpdateMergeRequest(level: number, authorId: number | null | undefined, userId: number): boolean {
  return level >= DEVELOPER || (authorId !== null && authorId !== undefined && authorId === userId);
}

/** Labels and milestones are managed by Reporters and above (GitLab's admin_label, admin_milestone). */
export function canManageLabels(level: number): boolean {
  return level >= REPORTER;
}
