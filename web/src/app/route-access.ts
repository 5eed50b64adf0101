import { matchPath } from 'react-router-dom';
import type { ProjectPage } from '../lib/routes';

/**
 * Which pages need a signed-in user. Public projects and groups are readable signed out, as
 * on GitLab (the server answers anonymous reads and 404s what the visitor may not see); pages
 * that only make sense for a user (their dashboards, settings, tokens, admin, creating things)
 * send a signed-out visitor to sign in and back.
 *
 * The router mounts exactly these paths behind RequireAuth (its element table is keyed by
 * this list, so the two cannot drift apart).
 */
export const SIGNED_IN_PATHS = [
  '/',
  '/dashboard/projects',
  '/dashboard/groups',
  '/dashboard/merge_requests',
  '/projects/new',
  '/groups/new',
  '/-/user_settings/personal_access_tokens',
  '/admin/users',
  '/admin/users/new',
  '/admin/abuse_reports',
] as const;

export type SignedInPath = (typeof SIGNED_IN_PATHS)[number];

/** Project sub-pages that write: creating a merge request or a fork, editing a file or a merge request. */
export function projectPageNeedsUser(page: ProjectPage): boolean {
  switch (page.kind) {
    case 'new-merge-request':
    case 'new-fork':
    case 'new-pipeline':
    case 'edit':
    case 'new-file':
      return true;
    case 'merge-request':
      return page.tab === 'edit';
    default:
      return false;
  }
}

/** Whether a top-level app path is one of the signed-in pages (everything else is a project or group path). */
export function isSignedInPath(pathname: string): boolean {
  return SIGNED_IN_PATHS.some((pattern) => matchPath({ path: pattern, end: true }, pathname) !== null);
}
