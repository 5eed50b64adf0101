import type { CommitSummary } from './gitlab-types';
import { formatDate, localDayKey } from './time';

/** Commits grouped under the day they were committed, newest day first, list order kept within a day. */
export interface CommitDay<C> {
  day: string;
  label: string;
  commits: C[];
}

export function groupCommitsByDay<C extends Pick<CommitSummary, 'committed_date'>>(commits: readonly C[]): CommitDay<C>[] {
  const groups: CommitDay<C>[] = [];
  const byDay = new Map<string, CommitDay<C>>();
  for (const commit of commits) {
    const date = new Date(commit.committed_date);
    const day = Number.isNaN(date.getTime()) ? 'unknown' : localDayKey(date);
    let group = byDay.get(day);
    if (!group) {
      group = { day, label: day === 'unknown' ? 'Unknown date' : formatDate(date), commits: [] };
      byDay.set(day, group);
      groups.push(group);
    }
    group.commits.push(commit);
  }
  return groups;
}
