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
  | 'fork_project';

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
  if (!ctx.archived && access >= AccessLevel.Developer) {
    abilities.add('push_code');
    abilities.add('create_branch');
    abilities.add('delete_branch');
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
 * Members may grant at most their own level, and only Owners grant Owner
 * (GitLab: "A Maintainer cannot add or promote to Owner").
 */
export function canAssignAccessLevel(callerLevel: number, isAdmin: boolean, requested: number): boolean {
  if (isAdmin) return true;
  if (requested >= AccessLevel.Owner) return callerLevel >= AccessLevel.Owner;
  return requested <= callerLevel;
}
