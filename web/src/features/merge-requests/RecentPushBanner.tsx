import { GitBranchIcon } from '@primer/octicons-react';
import { Banner } from '@primer/react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { TimeAgo } from '../../components/TimeAgo';
import type { Project } from '../../lib/gitlab-types';
import { canCreateBranch } from '../../lib/permissions';
import { recentPushCandidates } from '../../lib/recent-push';
import { urls } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { myRecentPushesQuery, openMergeRequestsForBranchQuery } from './api';
import styles from './RecentPushBanner.module.css';

/**
 * GitLab's "You pushed to <branch> … Create merge request" banner: the branch the signed-in
 * user pushed to most recently (within two hours, from their push events) that has no open
 * merge request yet.
 */
export function RecentPushBanner({ project }: { project: Project }) {
  const user = useOptionalUser();
  const navigate = useNavigate();
  // a visitor has pushed nothing: no banner, and no push-events read
  const allowed = user !== null && !project.empty_repo && canCreateBranch(userProjectLevel(project, user));
  const pushes = useQuery({ ...myRecentPushesQuery(project.id, user?.id ?? 0), enabled: allowed });
  const candidates = pushes.data ? recentPushCandidates(pushes.data, { now: Date.now(), defaultBranch: project.default_branch ?? null }) : [];
  const existing = useQueries({ queries: candidates.map((push) => openMergeRequestsForBranchQuery(project.id, push.branch)) });
  const index = existing.findIndex((query) => query.data !== undefined && query.data.length === 0);
  const push = index === -1 ? undefined : candidates[index];
  if (!allowed || !push) return null;

  const target = project.forked_from_project ? undefined : (project.default_branch ?? undefined);
  return (
    <Banner
      className={styles.banner}
      variant="info"
      title="Recent push"
      hideTitle
      leadingVisual={<GitBranchIcon />}
      description={
        <span>
          You pushed to <code className={styles.branch}>{push.branch}</code> <TimeAgo date={push.pushedAt} />
        </span>
      }
      primaryAction={
        <Banner.PrimaryAction onClick={() => void navigate(urls.newMergeRequest(project.path_with_namespace, { source_branch: push.branch, target_branch: target }))}>
          Create merge request
        </Banner.PrimaryAction>
      }
    />
  );
}
