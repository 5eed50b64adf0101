import type { Project, User } from '../../lib/gitlab-types';
import { featureAvailable, FEATURE_LEVELS, featureField, type ProjectFeature } from '@tributary/contracts/project-features';
import { canUpdateMergeRequest, projectAccessLevel } from '../../lib/permissions';

/**
 * The current user's standing in a project, for pages that are also shown signed out: a
 * visitor (null) has no level, whatever the project entity says, so no write action renders.
 */
export function userProjectLevel(project: Pick<Project, 'permissions'>, user: Pick<User, 'is_admin'> | null): number {
  return user ? projectAccessLevel(project, user.is_admin) : 0;
}

/** Edit, close, reopen: Developers and the author (GitLab's update_merge_request); never a visitor. */
export function userCanUpdateMergeRequest(project: Pick<Project, 'permissions'>, user: Pick<User, 'id' | 'is_admin'> | null, authorId: number | null | undefined): boolean {
  return user !== null && canUpdateMergeRequest(userProjectLevel(project, user), authorId, user.id);
}

/**
 * May the current user use a project feature (the shared featureAvailable rule)? Only hides
 * tabs and links; the server refuses on its own. Merge requests also need the repository.
 */
export function userCanUseFeature(project: Project, user: Pick<User, 'is_admin'> | null, feature: ProjectFeature): boolean {
  const viewer = { isAdmin: user?.is_admin === true, accessLevel: userProjectLevel(project, user), visibility: project.visibility };
  const available = (name: ProjectFeature) => featureAvailable(FEATURE_LEVELS[project[featureField(name)] ?? 'enabled'], viewer, name);
  if (feature === 'merge_requests' && !available('repository')) return false;
  return available(feature);
}
