/**
 * GitLab's "You pushed to <branch> … Create merge request" banner: branches the signed-in
 * user pushed to in the last two hours (from their push events), newest first, not the
 * default branch, not since deleted. Whether a merge request already exists is asked per
 * candidate; this module only picks them. Pure.
 */
import type { PushEvent } from './gitlab-types';

/** GitLab shows the banner for pushes in the last two hours. */
export const RECENT_PUSH_WINDOW_MS = 2 * 60 * 60 * 1000;
/** How many recent branches are checked for an existing merge request. */
export const RECENT_PUSH_CANDIDATES = 3;

export interface RecentPush {
  branch: string;
  pushedAt: string;
}

export function recentPushCandidates(
  events: readonly PushEvent[],
  options: { now: number; defaultBranch: string | null; limit?: number },
): RecentPush[] {
  const seen = new Set<string>();
  const picked: RecentPush[] = [];
  const newestFirst = [...events].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  for (const event of newestFirst) {
    const { ref, ref_type: refType, action } = event.push_data;
    if (refType !== 'branch' || seen.has(ref)) continue;
    seen.add(ref);
    // The newest event for a branch decides: a branch deleted since is no candidate.
    if (action === 'removed' || ref === options.defaultBranch) continue;
    if (options.now - Date.parse(event.created_at) > RECENT_PUSH_WINDOW_MS) continue;
    picked.push({ branch: ref, pushedAt: event.created_at });
    if (picked.length === (options.limit ?? RECENT_PUSH_CANDIDATES)) break;
  }
  return picked;
}
