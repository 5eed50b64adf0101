import { AccessLevel } from '@tributary/contracts';

export type RunnerAction = 'read_runner' | 'update_runner' | 'delete_runner' | 'assign_runner';

/** What the runner rules look at: the caller and their effective levels where the runner belongs. */
export interface RunnerSubjectContext {
  /** null for anonymous callers */
  userId: number | null;
  isAdmin: boolean;
  runnerType: 'instance_type' | 'group_type' | 'project_type';
  /** group runners: the caller's level in the owning group */
  groupLevel: number;
  /** project runners: the caller's level in each assigned project, the owner (first assigned) first */
  projectLevels: readonly number[];
}

/**
 * Who may do what to a runner (GitLab's RunnerPolicy and the runners API's checks): administrators
 * everything; instance runners are read by anyone signed in and managed by administrators only;
 * a group runner is read by the group's Maintainers and managed by its Owners; a project runner is
 * read and edited by Maintainers of any project it is assigned to, deleted and assigned to more
 * projects by Maintainers of the project that owns it.
 */
export function runnerAbilities(ctx: RunnerSubjectContext): Set<RunnerAction> {
  const abilities = new Set<RunnerAction>();
  if (ctx.userId === null) return abilities;
  if (ctx.isAdmin) return new Set(['read_runner', 'update_runner', 'delete_runner', 'assign_runner']);
  if (ctx.runnerType === 'instance_type') {
    abilities.add('read_runner');
  } else if (ctx.runnerType === 'group_type') {
    if (ctx.groupLevel >= AccessLevel.Maintainer) abilities.add('read_runner');
    if (ctx.groupLevel >= AccessLevel.Owner) {
      abilities.add('update_runner');
      abilities.add('delete_runner');
    }
  } else {
    if (ctx.projectLevels.some((level) => level >= AccessLevel.Maintainer)) {
      abilities.add('read_runner');
      abilities.add('update_runner');
    }
    if ((ctx.projectLevels[0] ?? 0) >= AccessLevel.Maintainer) {
      abilities.add('delete_runner');
      abilities.add('assign_runner');
    }
  }
  return abilities;
}
