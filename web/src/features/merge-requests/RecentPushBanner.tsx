import { GitBranchIcon } from '@primer/octicons-react';
import { Banner } from '@primer/react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { TimeAgo } from '../../components/TimeAgo';
import type { Project } from '../../lib/gitlab-types';
import { canCreateBranch, projectAccessLevel } from '../../lib/permissions';
import { RECENT_PUSH_CANDIDATES, recentPushCandidates } from '../../lib/recent-push';
import { urls } from '../../lib/routes';
import { useCurrentUser } from '../session/useCurrentUser';
import { openMergeRequestsForBranchQuery, recentBranchesQuery } from './api';
import styles from './RecentPushBanner.module.css';

/**
 * GitLab's "You pushed to <branch> … Create merge request" banner: the most recently
 * updated branch (within two hours) that has no open merge request yet.
 */
export function RecentPushBanner({ project }: { project: Project }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const allowed = !project.empty_repo && canCreateBranch(projectAccessLevel(project, user.is_admin));
  // One more than the candidates, since the default branch may be among the newest.
  const branches = useQuery({ ...recentBranchesQuery(project.id, RECENT_PUSH_CANDIDATES + 1), enabled: allowed });
  const candidates = branches.data ? recentPushCandidates(branches.data, Date.now()) : [];
  const existing = useQueries({ queries: candidates.map((branch) => openMergeRequestsForBranchQuery(project.id, branch.name)) });
  const index = existing.findIndex((query) => query.data !== undefined && query.data.length === 0);
  const branch = index === -1 ? undefined : candidates[index];
  if (!allowed || !branch) return null;

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
          You pushed to <code className={styles.branch}>{branch.name}</code> <TimeAgo date={branch.commit.committed_date} />
        </span>
      }
      primaryAction={
        <Banner.PrimaryAction onClick={() => void navigate(urls.newMergeRequest(project.path_with_namespace, { source_branch: branch.name, target_branch: target }))}>
          Create merge request
        </Banner.PrimaryAction>
      }
    />
  );
}
