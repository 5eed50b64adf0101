import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { GUEST, projectAccessLevel } from '../../lib/permissions';
import { sessionQuery } from '../session';
import { mergeRequestAwardsQuery, type AwardTarget } from './api';
import { MERGE_REQUEST_DEFAULT_AWARDS } from './award-groups';
import { AwardsList } from './AwardsList';

/**
 * The merge request's own awards under its description, thumbs up and down always shown.
 * Awarding needs a signed-in user, and a member when the discussion is locked.
 */
export function MergeRequestAwards({ project, mr }: { project: Project; mr: MergeRequest }) {
  const session = useQuery(sessionQuery());
  const user = session.data?.user ?? null;
  const locked = (mr as MergeRequest & { discussion_locked?: boolean | null }).discussion_locked === true;
  const canAward = user !== null && (!locked || projectAccessLevel(project, user.is_admin) >= GUEST);
  const target: AwardTarget = useMemo(() => ({ projectId: project.id, iid: mr.iid, noteId: null }), [project.id, mr.iid]);
  const awards = useQuery(mergeRequestAwardsQuery(project.id, mr.iid));
  return <AwardsList target={target} awards={awards.data} user={user} canAward={canAward} defaults={MERGE_REQUEST_DEFAULT_AWARDS} />;
}
