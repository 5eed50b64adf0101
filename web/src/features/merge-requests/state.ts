/**
 * The state badge of a merge request: Open, Draft, Merged, Closed (and Locked, GitLab's
 * transient state while merging). A draft is an open merge request whose title marks it. Pure.
 */
import type { MergeRequestBasic } from '../../lib/gitlab-types';

export type StateBadge = { label: 'Open' | 'Draft' | 'Merged' | 'Closed' | 'Locked'; status: 'pullOpened' | 'draft' | 'pullMerged' | 'pullClosed' };

export function stateBadge(mr: Pick<MergeRequestBasic, 'state' | 'draft'>): StateBadge {
  switch (mr.state) {
    case 'merged':
      return { label: 'Merged', status: 'pullMerged' };
    case 'closed':
      return { label: 'Closed', status: 'pullClosed' };
    case 'locked':
      return { label: 'Locked', status: 'pullOpened' };
    case 'opened':
      return mr.draft ? { label: 'Draft', status: 'draft' } : { label: 'Open', status: 'pullOpened' };
  }
}
