import { t, type Visibility } from '@tributary/contracts';

/**
 * The one visibility rule, for every path that sets a project's or a group's visibility
 * (create, update, fork): a project or group is never more visible than the namespace that
 * holds it or, for a fork, than its fork source; a group is never less visible than a project
 * or subgroup it holds. GitLab's model validations (Project#visibility_level_allowed_by_group,
 * #visibility_level_allowed_as_fork; Group#visibility_level_allowed_by_parent, _by_projects,
 * _by_sub_groups), with their messages, answered as 400 `{"message": {"visibility_level": [...]}}`.
 * Pure.
 */
export const VISIBILITY_MESSAGES = {
  projectInGroup: '%{level} is not allowed in a %{group} group.',
  projectAsFork: '%{level} is not allowed since the fork source project has lower visibility.',
  groupUnderParent: '%{level} is not allowed since the parent group has a %{parent} visibility.',
  groupProjects: '%{level} is not allowed since this group contains projects with higher visibility.',
  groupSubgroups: '%{level} is not allowed since there are sub-groups with higher visibility.',
} as const;

export const VISIBILITY_RANK: Record<Visibility, number> = { private: 0, internal: 1, public: 2 };

/** A child may not be more visible than its parent. */
export function visibilityAllowedUnder(child: Visibility, parent: Visibility): boolean {
  return VISIBILITY_RANK[child] <= VISIBILITY_RANK[parent];
}

/** The errors for a project at `level`; empty when allowed. `group` is null in a personal namespace, `forkSource` null when not a fork (or its source is gone). */
export function projectVisibilityErrors(level: Visibility, around: { group: Visibility | null; forkSource: Visibility | null }): string[] {
  const errors: string[] = [];
  if (around.group !== null && !visibilityAllowedUnder(level, around.group)) errors.push(t(VISIBILITY_MESSAGES.projectInGroup, { level, group: around.group }));
  if (around.forkSource !== null && !visibilityAllowedUnder(level, around.forkSource)) errors.push(t(VISIBILITY_MESSAGES.projectAsFork, { level }));
  return errors;
}

/** The errors for a group at `level`, given its parent's visibility and those of the projects and subgroups it holds directly. */
export function groupVisibilityErrors(level: Visibility, around: { parent: Visibility | null; projects: readonly Visibility[]; subgroups: readonly Visibility[] }): string[] {
  const errors: string[] = [];
  if (around.parent !== null && !visibilityAllowedUnder(level, around.parent)) errors.push(t(VISIBILITY_MESSAGES.groupUnderParent, { level, parent: around.parent }));
  if (around.projects.some((held) => !visibilityAllowedUnder(held, level))) errors.push(t(VISIBILITY_MESSAGES.groupProjects, { level }));
  if (around.subgroups.some((held) => !visibilityAllowedUnder(held, level))) errors.push(t(VISIBILITY_MESSAGES.groupSubgroups, { level }));
  return errors;
}
