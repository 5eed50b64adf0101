import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { UserBasic } from '../../lib/gitlab-types';
import { noteAwardsQuery, type AwardTarget } from './api';
import { awardsOfNote } from './award-groups';
import { AwardsList } from './AwardsList';

/** A note's awards, read from the one list of every note's awards of the merge request. */
export function NoteAwards({ projectId, iid, noteId, user, canAward }: { projectId: number; iid: number; noteId: number; user: UserBasic | null; canAward: boolean }) {
  const target: AwardTarget = useMemo(() => ({ projectId, iid, noteId }), [projectId, iid, noteId]);
  const awards = useQuery({ ...noteAwardsQuery(projectId, iid), select: (all) => awardsOfNote(all, noteId) });
  return <AwardsList target={target} awards={awards.data} user={user} canAward={canAward} />;
}
