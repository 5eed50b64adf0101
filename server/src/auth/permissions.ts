import { AccessLevel, type Visibility } from '@tributary/contracts';

/**
 * The pure permission rules: who may do what to a project or group, given
 * the caller's effective access level (the highest of their direct and
 * inherited memberships) and the subject's visibility. GitLab's rules
 * (doc/user/permissions.md) in one table; auth/authorizer.ts feeds it.
 */
export type ProjectAction =
  | 'read_project'
  | 'download_code'
  | 'push_code'
  | 'create_branch'
  | 'delete_branch'
  | 'read_members'
  | 'admin_members'
  | 'admin_project'
  | 'admin_protected_branches'
  | 'remove_project'
  | 'change_visibility'
  | 'fork_project'
  | 'read_merge_request'
  | 'create_merge_request_in'
  | 'create_merge_request_from'
  | 'update_merge_request';

export type GroupAction =
  | 'read_group'
  | 'read_members'
  | 'admin_members'
  | 'create_projects'
  | 'create_subgroup'
  | 'admin_group'
  | 'remove_group';

export interface SubjectContext {
  /** null for anonymous callers */
  userId: number | null;
  isAdmin: boolean;
  /** The caller's effective access level on the subject (0 when not a member). */
  accessLevel: number;
  visibility: Visibility;
  archived?: boolean;
}

/** May the caller see the subject at all? Everything else requires this. */
export function canRead(ctx: SubjectContext): boolean {
  if (ctx.isAdmin) return true;
  if (ctx.visibility === 'public') return true;
  if (ctx.visibility === 'internal') return ctx.userId !== null;
  return ctx.accessLevel >= AccessLevel.Guest;
}

function level(ctx: SubjectContext): number {
  return ctx.isAdmin ? AccessLevel.Owner : ctx.accessLevel;
}

export function projectAbilities(ctx: SubjectContext): Set<ProjectAction> {
  const abilities = new Set<ProjectAction>();
  if (!canRead(ctx)) return abilities;
  const access = level(ctx);
  abilities.add('read_project');
  abilities.add('read_members');
  // Guests of private projects cannot read code; anyone who can see an
  // internal or public project can (GitLab's "Download project" row).
  if (ctx.visibility !== 'private' || access >= AccessLevel.Reporter) abilities.add('download_code');
  if (ctx.userId !== null && abilities.has('download_code')) abilities.add('fork_project');
  // A merge request shows code, so reading one needs what reading code needs.
  if (abilities.has('download_code')) abilities.add('read_merge_request');
  // Anyone signed in who reads the code may propose changes to it (from a branch they
  // can push to, usually in their fork): GitLab's create_merge_request_in.
  if (ctx.userId !== null && !ctx.archived && abilities.has('download_code')) abilities.add('create_merge_request_in');
  if (!ctx.archived && access >= AccessLevel.Developer) {
    abilities.add('push_code');
    abilities.add('create_branch');
    abilities.add('delete_branch');
    // The source side needs push access (GitLab's create_merge_request_from).
    abilities.add('create_merge_request_from');
    // Any merge request of the project, not only one's own (see canUpdateMergeRequest).
    abilities.add('update_merge_request');
  }
  if (access >= AccessLevel.Maintainer) {
    abilities.add('admin_members');
    abilities.add('admin_project');
    abilities.add('admin_protected_branches');
  }
  if (access >= AccessLevel.Owner) {
    abilities.add('remove_project');
    abilities.add('change_visibility');
  }
  return abilities;
}

export function groupAbilities(ctx: SubjectContext): Set<GroupAction> {
  const abilities = new Set<GroupAction>();
  if (!canRead(ctx)) return abilities;
  const access = level(ctx);
  abilities.add('read_group');
  abilities.add('read_members');
  // GitLab's default project creation level: Developers and Maintainers.
  if (access >= AccessLevel.Developer) abilities.add('create_projects');
  if (access >= AccessLevel.Maintainer) abilities.add('create_subgroup');
  if (access >= AccessLevel.Owner) {
    abilities.add('admin_members');
    abilities.add('admin_group');
    abilities.add('remove_group');
  }
  return abilities;
}

/**
 * May the caller edit, close or reopen one merge request? Developers and above may edit any;
 * its author may edit their own while they can still read it (GitLab's update_merge_request).
 */
export function canUpdateMergeRequest(abilities: ReadonlySet<ProjectAction>, isAuthor: boolean): boolean {
  if (abilities.has('update_merge_request')) return true;
  return isAuthor && abilities.has('read_merge_request');
}

/**
 * Members may grant at most their own level, and only Owners grant Owner
 * (GitLab: "A Maintainer cannot add or promote to Owner").
 */
export function canAssignAccessLevel(callerLevel: number, isAdmin: boolean, requested: number): boolean {
  if (isAdmin) return true;
  if (requested >= AccessLevel.Owner) return callerLevel >= AccessLevel.Owner;
  return requested <= callerLevel;
}

/**
 * Changing or removing an existing member: only Owners (and administrators)
 * may touch an Owner's membership (GitLab: Maintainers cannot demote or
 * remove Owners).
 */
export function canChangeMember(callerLevel: number, isAdmin: boolean, targetCurrentLevel: number): boolean {
  if (isAdmin) return true;
  return targetCurrentLevel < AccessLevel.Owner || callerLevel >= AccessLevel.Owner;
}
