import { AccessLevel, FEATURE_LEVELS, featureAvailable as isFeatureAvailable, featureField, type FeatureField, type ProjectFeature, type Visibility } from '@tributary/contracts';

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
  | 'update_merge_request'
  | 'destroy_merge_request'
  // discussions: per-note rules are in noteAbilities() below
  | 'create_note'
  | 'read_internal_note'
  | 'create_internal_note'
  | 'bypass_discussion_lock'
  | 'resolve_note'
  | 'admin_note'
  | 'award_emoji'
  // labels and milestones: read with the project, managed by Reporters and above (GitLab's admin_label, admin_milestone)
  | 'read_label'
  | 'admin_label'
  | 'read_milestone'
  | 'admin_milestone'
  // CI runners: Maintainers list, create and manage the project's runners (GitLab's create_runner, admin_project_runners)
  | 'admin_runners'
  // CI/CD pipelines and jobs (GitLab's read_pipeline/read_build, create_pipeline, update_pipeline/update_build, destroy_pipeline);
  // creating, retrying, canceling and playing also need the ref's branch rule (domains/pipelines/pipeline-access.ts)
  | 'read_pipeline'
  | 'read_build'
  | 'create_pipeline'
  | 'update_pipeline'
  | 'destroy_pipeline'
  // Maintainers administer pipelines: they see every pipeline's variable values (GitLab's admin_pipeline)
  | 'admin_pipeline'
  // pipeline schedules: Reporters see them, Developers create (and edit their own, canUpdatePipelineSchedule),
  // Maintainers edit any and take ownership (GitLab's read_/create_/admin_pipeline_schedule)
  | 'read_pipeline_schedule'
  | 'create_pipeline_schedule'
  | 'admin_pipeline_schedule'
  // environments and deployments (GitLab's read_environment/read_deployment; create/update/stop/destroy_environment and
  // create/update_deployment are update_deployment here); writing a deployment also needs its ref's branch rule
  | 'read_deployment'
  | 'update_deployment'
  // CI/CD variables: Maintainers manage a project's (GitLab's admin_cicd_variables)
  | 'admin_cicd_variables'
  // push rules: Maintainers and above (GitLab's admin_push_rule)
  | 'admin_push_rules'
  // approvals: Developers and above approve (GitLab's approve_merge_request; who counts for which rule is
  // domains/approvals/); Maintainers edit the rules and settings (GitLab's admin_merge_request_approval_settings)
  | 'approve_merge_request'
  | 'admin_merge_request_approvals';

export type GroupAction =
  | 'read_group'
  | 'read_members'
  | 'admin_members'
  | 'create_projects'
  | 'create_subgroup'
  /** the group's merge request approval settings (GitLab's admin_merge_request_approval_settings: Owners) */
  | 'admin_merge_request_approvals'
  /** moving a project into the group (GitLab's transfer_projects) */
  | 'transfer_projects'
  | 'admin_group'
  | 'remove_group'
  | 'read_label'
  | 'admin_label'
  | 'read_milestone'
  | 'admin_milestone'
  /** listing the group's runners (GitLab's read_group_runners: Maintainers) */
  | 'read_runners'
  /** creating and managing group runners (GitLab's create_runner, admin_group_runners: Owners) */
  | 'admin_runners'
  // CI/CD variables: Owners manage a group's (GitLab's admin_cicd_variables)
  | 'admin_cicd_variables';

export interface SubjectContext {
  /** null for anonymous callers */
  userId: number | null;
  isAdmin: boolean;
  /** The caller's effective access level on the subject (0 when not a member). */
  accessLevel: number;
  visibility: Visibility;
  archived?: boolean;
  /** a project's feature levels (GitLab's ProjectFeature, `<feature>_access_level`); absent ones are 'enabled' */
  features?: Partial<Record<FeatureField, number>> & { public_builds?: boolean };
}

/** GitLab's feature_available? for the caller (the rule is the contracts' featureAvailable, which the web app shares). */
export function featureAvailable(ctx: SubjectContext, feature: ProjectFeature): boolean {
  return isFeatureAvailable(ctx.features?.[featureField(feature)] ?? FEATURE_LEVELS.enabled, ctx, feature);
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
  abilities.add('read_label');
  abilities.add('read_milestone');
  if (!ctx.archived && access >= AccessLevel.Reporter) {
    abilities.add('admin_label');
    abilities.add('admin_milestone');
  }
  // Guests of private projects cannot read code; anyone who can see an
  // internal or public project can (GitLab's "Download project" row).
  // A disabled or members-only repository takes code, pushes, branches and forks with it.
  const repository = featureAvailable(ctx, 'repository');
  if (repository && (ctx.visibility !== 'private' || access >= AccessLevel.Reporter)) abilities.add('download_code');
  if (ctx.userId !== null && abilities.has('download_code') && featureAvailable(ctx, 'forking')) abilities.add('fork_project');
  // A merge request shows code, so reading one needs what reading code needs, and the
  // merge requests feature (GitLab: merge requests need the repository).
  const mergeRequests = abilities.has('download_code') && featureAvailable(ctx, 'merge_requests');
  if (mergeRequests) abilities.add('read_merge_request');
  // Anyone signed in who reads the code may propose changes to it (from a branch they
  // can push to, usually in their fork): GitLab's create_merge_request_in.
  if (ctx.userId !== null && !ctx.archived && mergeRequests) abilities.add('create_merge_request_in');
  if (!ctx.archived && access >= AccessLevel.Developer && repository) {
    abilities.add('push_code');
    abilities.add('create_branch');
    abilities.add('delete_branch');
    // The source side needs push access and merge requests (GitLab's create_merge_request_from).
    if (mergeRequests) abilities.add('create_merge_request_from');
    // Any merge request of the project, not only one's own (see canUpdateMergeRequest).
    if (mergeRequests) abilities.add('update_merge_request');
    if (mergeRequests) abilities.add('approve_merge_request');
    if (featureAvailable(ctx, 'builds')) {
      abilities.add('create_pipeline');
      abilities.add('update_pipeline');
      abilities.add('create_pipeline_schedule');
      if (access >= AccessLevel.Maintainer) abilities.add('admin_pipeline_schedule');
      if (access >= AccessLevel.Maintainer) abilities.add('admin_pipeline');
      abilities.add('update_deployment');
    }
  }
  if (featureAvailable(ctx, 'builds') && access >= AccessLevel.Reporter) abilities.add('read_pipeline_schedule');
  // Pipelines and jobs: the builds feature, and with public_builds off ("Public pipelines")
  // only Reporters and above.
  if (featureAvailable(ctx, 'builds') && (ctx.features?.public_builds !== false || access >= AccessLevel.Reporter)) {
    abilities.add('read_pipeline');
    abilities.add('read_build');
  }
  // Environments and deployments: Reporters and above, or anyone on a project that is not
  // private while its pipelines are readable (GitLab's read_environment/read_deployment).
  if (abilities.has('read_pipeline') && (ctx.visibility !== 'private' || access >= AccessLevel.Reporter)) abilities.add('read_deployment');
  addNoteAbilities(abilities, ctx, access);
  if (access >= AccessLevel.Maintainer) {
    abilities.add('admin_members');
    abilities.add('admin_project');
    abilities.add('admin_protected_branches');
    abilities.add('admin_runners');
    abilities.add('admin_cicd_variables');
    abilities.add('admin_push_rules');
    abilities.add('admin_merge_request_approvals');
  }
  if (access >= AccessLevel.Owner) {
    abilities.add('remove_project');
    abilities.add('change_visibility');
    // GitLab: only owners and administrators delete merge requests.
    if (mergeRequests) abilities.add('destroy_merge_request');
    // GitLab: only owners delete pipelines.
    if (!ctx.archived) abilities.add('destroy_pipeline');
  }
  return abilities;
}

export function groupAbilities(ctx: SubjectContext): Set<GroupAction> {
  const abilities = new Set<GroupAction>();
  if (!canRead(ctx)) return abilities;
  const access = level(ctx);
  abilities.add('read_group');
  abilities.add('read_members');
  abilities.add('read_label');
  abilities.add('read_milestone');
  if (access >= AccessLevel.Reporter) {
    abilities.add('admin_label');
    abilities.add('admin_milestone');
  }
  // GitLab's default project creation level: Developers and Maintainers.
  if (access >= AccessLevel.Developer) abilities.add('create_projects');
  if (access >= AccessLevel.Maintainer) {
    abilities.add('create_subgroup');
    abilities.add('transfer_projects');
    abilities.add('read_runners');
  }
  if (access >= AccessLevel.Owner) {
    abilities.add('admin_members');
    abilities.add('admin_group');
    abilities.add('remove_group');
    abilities.add('admin_runners');
    abilities.add('admin_cicd_variables');
    abilities.add('admin_merge_request_approvals');
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
 * May the caller edit one pipeline schedule (and its variables, and see their values)? Maintainers
 * may edit any; its owner their own while they may still create schedules (GitLab's
 * update_pipeline_schedule).
 */
export function canUpdatePipelineSchedule(abilities: ReadonlySet<ProjectAction>, isOwner: boolean): boolean {
  if (abilities.has('admin_pipeline_schedule')) return true;
  return isOwner && abilities.has('create_pipeline_schedule');
}

/**
 * May the caller see the values of a pipeline's variables (those given to 'Run pipeline', the API's
 * `variables`)? Maintainers may for every pipeline; Developers only for a pipeline they triggered
 * (GitLab's read_pipeline_variable: admin_pipeline, or update_pipeline and triggerer).
 */
export function canReadPipelineVariables(abilities: ReadonlySet<ProjectAction>, isTriggerer: boolean): boolean {
  if (abilities.has('admin_pipeline')) return true;
  return isTriggerer && abilities.has('update_pipeline');
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

/**
 * Discussions on merge requests (GitLab's NotePolicy and IssuablePolicy, doc/user/permissions.md).
 * Anyone signed in who reads a merge request may comment on it (GitLab lets non-members comment
 * on public projects) and react; archived projects are read-only. Internal notes are read and
 * written by Reporters and above; members still comment on a locked discussion; Developers
 * resolve threads; Maintainers may delete anyone's notes.
 */
function addNoteAbilities(abilities: Set<ProjectAction>, ctx: SubjectContext, access: number): void {
  if (!abilities.has('read_merge_request')) return;
  if (access >= AccessLevel.Reporter) abilities.add('read_internal_note');
  if (ctx.userId === null || ctx.archived) return;
  abilities.add('create_note');
  abilities.add('award_emoji');
  if (access >= AccessLevel.Guest) abilities.add('bypass_discussion_lock');
  if (access >= AccessLevel.Reporter) abilities.add('create_internal_note');
  if (access >= AccessLevel.Developer) abilities.add('resolve_note');
  if (access >= AccessLevel.Maintainer) abilities.add('admin_note');
}

export type NoteAction = 'read_note' | 'reply_to_note' | 'update_note' | 'delete_note' | 'resolve_note' | 'award_emoji';

/** What the per-note rules look at, besides the caller's project abilities. */
export interface NoteSubject {
  /** the caller (null: anonymous) */
  userId: number | null;
  noteAuthorId: number | null;
  mergeRequestAuthorId: number | null;
  discussionLocked: boolean;
  system: boolean;
  internal: boolean;
  /** a thread note (DiscussionNote or DiffNote) that is not a system note */
  resolvable: boolean;
}

/** A locked discussion takes comments (and edits, resolutions, reactions) from project members only. */
function lockedOut(project: ReadonlySet<ProjectAction>, locked: boolean): boolean {
  return locked && !project.has('bypass_discussion_lock');
}

/** May the caller start a comment or thread, internal or not, on the merge request? */
export function canCreateNote(project: ReadonlySet<ProjectAction>, options: { discussionLocked: boolean; internal: boolean }): boolean {
  if (!project.has('create_note') || lockedOut(project, options.discussionLocked)) return false;
  return !options.internal || project.has('create_internal_note');
}

/** May the caller react to the merge request itself? */
export function canAwardMergeRequest(project: ReadonlySet<ProjectAction>, discussionLocked: boolean): boolean {
  return project.has('award_emoji') && !lockedOut(project, discussionLocked);
}

/**
 * What the caller may do with one note. Nothing at all when they may not read it (an internal
 * note for a Guest): callers answer 404 then, so its existence does not leak. Edits are the
 * author's own (system notes are nobody's); deleting another's note needs admin_note; resolving
 * needs resolve_note or being the merge request's author (GitLab's Discussion#can_resolve?).
 */
export function noteAbilities(project: ReadonlySet<ProjectAction>, note: NoteSubject): Set<NoteAction> {
  const abilities = new Set<NoteAction>();
  if (!project.has('read_merge_request')) return abilities;
  if (note.internal && !project.has('read_internal_note')) return abilities;
  abilities.add('read_note');
  if (!project.has('create_note') || lockedOut(project, note.discussionLocked)) return abilities;
  const isAuthor = note.userId !== null && note.noteAuthorId === note.userId;
  if (!note.internal || project.has('create_internal_note')) abilities.add('reply_to_note');
  abilities.add('award_emoji');
  if (note.system) return abilities;
  if (isAuthor) abilities.add('update_note');
  if (isAuthor || project.has('admin_note')) abilities.add('delete_note');
  const isMergeRequestAuthor = note.userId !== null && note.mergeRequestAuthorId === note.userId;
  if (note.resolvable && (project.has('resolve_note') || isMergeRequestAuthor)) abilities.add('resolve_note');
  return abilities;
}
