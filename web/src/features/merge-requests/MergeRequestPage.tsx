import { CommentDiscussionIcon, FileDiffIcon, GitCommitIcon, RocketIcon } from '@primer/octicons-react';
import { UnderlineNav } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { NotFoundPage } from '../../app/NotFoundPage';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { ApiError } from '../../lib/api-error';
import type { Project } from '../../lib/gitlab-types';
import { urls, type MergeRequestTab } from '../../lib/routes';
import { loadMergeRequestPipelines } from '../pipelines';
import { projectQuery } from '../projects';
import { ReviewBar } from '../review';
import { userCanUpdateMergeRequest, userProjectLevel, useOptionalUser } from '../session';
import { DEVELOPER } from '../../lib/permissions';
import { mergeRequestQuery } from './api';
import { MergeRequestHeader } from './MergeRequestHeader';
import { MergeRequestOverview } from './MergeRequestOverview';
import styles from './MergeRequestPage.module.css';

// The other tabs load when opened: the Overview, the page a link usually opens, does not wait
// for the diff viewer's and the commit list's code.
const MergeRequestChanges = lazy(() => import('./MergeRequestChanges').then((m) => ({ default: m.MergeRequestChanges })));
const MergeRequestCommits = lazy(() => import('./MergeRequestCommits').then((m) => ({ default: m.MergeRequestCommits })));
const MergeRequestPipelines = lazy(() => loadMergeRequestPipelines().then((m) => ({ default: m.MergeRequestPipelines })));
const EditMergeRequest = lazy(() => import('./EditMergeRequest').then((m) => ({ default: m.EditMergeRequest })));

/**
 * `/<path>/-/merge_requests/<iid>[/commits|/pipelines|/diffs|/edit]`: the header, the Overview,
 * Commits, Pipelines and Changes tabs, and the tab's content.
 */
export function MergeRequestPage({ project, iid, tab }: { project: Project; iid: number; tab: MergeRequestTab }) {
  const user = useOptionalUser();
  const mr = useQuery(mergeRequestQuery(project.id, iid));
  const sourceProjectId = mr.data && mr.data.source_project_id !== mr.data.target_project_id ? mr.data.source_project_id : null;
  const sourceProject = useQuery({ ...projectQuery(sourceProjectId ?? 0), enabled: sourceProjectId !== null, retry: false });
  // GitLab's 'Title (!1) · Merge requests · group / project'; 'Page not found' names itself.
  useDocumentTitle(mr.isError ? null : [mr.data ? `${mr.data.title} (!${iid})` : null, 'Merge requests', project.name_with_namespace]);

  if (mr.isPending) {
    return (
      <div role="status" aria-label="Loading merge request">
        <SkeletonBox height="96px" />
      </div>
    );
  }
  if (mr.isError) {
    return mr.error instanceof ApiError && mr.error.isNotFound ? <NotFoundPage /> : <PageError error={mr.error} onRetry={() => void mr.refetch()} />;
  }
  const data = mr.data;
  const fullPath = project.path_with_namespace;
  const canUpdate = userCanUpdateMergeRequest(project, user, data.author?.id);
  // A deleted source fork shows as "(removed)", as in GitLab.
  const sourceProjectPath = sourceProjectId === null ? null : (sourceProject.data?.path_with_namespace ?? (data.source_project_id === null ? '(removed)' : null));

  if (tab === 'edit') {
    if (!canUpdate) return <NotFoundPage />;
    return (
      <Suspense fallback={<PageLoading />}>
        <EditMergeRequest project={project} mr={data} />
      </Suspense>
    );
  }

  const tabs: { id: MergeRequestTab; label: string; icon: typeof GitCommitIcon; counter?: string }[] = [
    { id: 'overview', label: 'Overview', icon: CommentDiscussionIcon },
    { id: 'commits', label: 'Commits', icon: GitCommitIcon },
    { id: 'pipelines', label: 'Pipelines', icon: RocketIcon },
    { id: 'diffs', label: 'Changes', icon: FileDiffIcon, counter: data.changes_count ?? undefined },
  ];
  return (
    <div className={styles.page}>
      <MergeRequestHeader project={project} mr={data} canUpdate={canUpdate} sourceProjectPath={sourceProjectPath} />
      <UnderlineNav aria-label="Merge request">
        {tabs.map((item) => (
          <UnderlineNav.Item
            key={item.id}
            as={RouterLink}
            to={urls.mergeRequest(fullPath, data.iid, item.id)}
            leadingVisual={<item.icon />}
            counter={item.counter}
            aria-current={item.id === tab ? 'page' : undefined}
          >
            {item.label}
          </UnderlineNav.Item>
        ))}
      </UnderlineNav>
      {tab === 'overview' ? (
        <MergeRequestOverview project={project} mr={data} canUpdate={canUpdate} sourceProjectPath={sourceProjectPath} />
      ) : (
        <Suspense fallback={<PageLoading />}>
          {tab === 'commits' ? (
            <MergeRequestCommits project={project} mr={data} />
          ) : tab === 'pipelines' ? (
            // 'Run pipeline' for those who may run pipelines (a fork's author too: it runs in the fork); the server decides.
            <MergeRequestPipelines project={project} iid={data.iid} canRun={user !== null && (userProjectLevel(project, user) >= DEVELOPER || (user.id === data.author?.id && sourceProjectId !== null))} />
          ) : (
            <MergeRequestChanges project={project} mr={data} />
          )}
        </Suspense>
      )}
      <ReviewBar target={{ projectId: project.id, iid: data.iid }} />
    </div>
  );
}
