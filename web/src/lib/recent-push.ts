/**
 * GitLab's "You pushed to <branch> … Create merge request" banner: the most recently
 * updated branches other than the default, updated within the last two hours. Whether a
 * merge request already exists is asked per candidate; this module only picks them. The
 * server keeps no per-user push feed the web can read yet, so the branch's newest commit
 * time stands in for the push time. Pure.
 */
import type { Branch } from './gitlab-types';

/** GitLab shows the banner for pushes in the last two hours. */
export const RECENT_PUSH_WINDOW_MS = 2 * 60 * 60 * 1000;
/** How many recent branches are checked for an existing merge request. */
export const RECENT_PUSH_CANDIDATES = 3;

export function recentPushCandidates(branches: readonly Branch[], now: number, limit = RECENT_PUSH_CANDIDATES): Branch[] {
  return branches
    .filter((branch) => !branch.default && now - Date.parse(branch.commit.committed_date) <= RECENT_PUSH_WINDOW_MS)
    .sort((a, b) => Date.parse(b.commit.committed_date) - Date.parse(a.commit.committed_date))
    .slice(0, limit);
}
