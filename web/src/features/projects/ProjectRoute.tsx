import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageLoading } from '../../components/PageLoading';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { NotFoundPage } from '../../app/NotFoundPage';
import type { Project } from '../../lib/gitlab-types';
import { projectPageNeedsUser } from '../../app/route-access';
import { MAINTAINER } from '../../lib/permissions';
import { parseProjectPage, urls, type MergeRequestTab, type PipelineTab, type ProjectPage, type ProjectSettingsPage } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { loadBranchesPage } from '../branches';
import { loadCommitPage, loadCommitsPage } from '../commits';
import { loadNewForkPage } from '../forks';
import { loadProjectLabelsPage, loadProjectMilestonesPage } from '../labels';
import { loadProjectMembersPage } from '../members';
import { loadMergeRequestPage, loadMergeRequestsPage, loadNewMergeRequestPage } from '../merge-requests';
import { loadBlobPage, loadEditFilePage, loadNewFilePage, loadProjectOverviewPage, loadTreePage } from '../repository';
import { loadArtifactsBrowserPage, loadJobPage, loadJobsPage, loadNewPipelinePage, loadPipelinePage, loadPipelinesPage } from '../pipelines';
import { loadProjectSettingsRoute } from '../settings';
import { loadEnvironmentPage, loadEnvironmentsPage } from '../environments';
import { loadMergeTrainsPage } from '../merge-trains';
import { ProjectLayout, type ProjectSection } from './ProjectLayout';

type PageProps<P> = { project: Project } & P;

function lazyPage<P>(load: () => Promise<ComponentType<PageProps<P>>>): LazyExoticComponent<ComponentType<PageProps<P>>> {
  return lazy(async () => ({ default: await load() }));
}

const ProjectOverviewPage = lazyPage(() => loadProjectOverviewPage().then((m) => m.ProjectOverviewPage));
const TreePage = lazyPage<{ refAndPath: string }>(() => loadTreePage().then((m) => m.TreePage));
const BlobPage = lazyPage<{ refAndPath: string }>(() => loadBlobPage().then((m) => m.BlobPage));
const CommitsPage = lazyPage<{ refAndPath: string }>(() => loadCommitsPage().then((m) => m.CommitsPage));
const CommitPage = lazyPage<{ sha: string }>(() => loadCommitPage().then((m) => m.CommitPage));
const BranchesPage = lazyPage(() => loadBranchesPage().then((m) => m.BranchesPage));
const ProjectMembersPage = lazyPage(() => loadProjectMembersPage().then((m) => m.ProjectMembersPage));
const MergeRequestsPage = lazyPage(() => loadMergeRequestsPage().then((m) => m.MergeRequestsPage));
const NewMergeRequestPage = lazyPage(() => loadNewMergeRequestPage().then((m) => m.NewMergeRequestPage));
const MergeRequestPage = lazyPage<{ iid: number; tab: MergeRequestTab }>(() => loadMergeRequestPage().then((m) => m.MergeRequestPage));
const ProjectLabelsPage = lazyPage(() => loadProjectLabelsPage().then((m) => m.ProjectLabelsPage));
const ProjectMilestonesPage = lazyPage(() => loadProjectMilestonesPage().then((m) => m.ProjectMilestonesPage));
const NewForkPage = lazyPage(() => loadNewForkPage().then((m) => m.NewForkPage));
const ProjectSettingsRoute = lazyPage<{ section: ProjectSettingsPage }>(() => loadProjectSettingsRoute().then((m) => m.ProjectSettingsRoute));
const PipelinesPage = lazyPage(() => loadPipelinesPage().then((m) => m.PipelinesPage));
const NewPipelinePage = lazyPage(() => loadNewPipelinePage().then((m) => m.NewPipelinePage));
const PipelinePage = lazyPage<{ id: number; tab: PipelineTab }>(() => loadPipelinePage().then((m) => m.PipelinePage));
const JobsPage = lazyPage(() => loadJobsPage().then((m) => m.JobsPage));
const JobPage = lazyPage<{ id: number }>(() => loadJobPage().then((m) => m.JobPage));
const NewFilePage = lazyPage<{ refAndPath: string }>(() => loadNewFilePage().then((m) => m.NewFilePage));
const EnvironmentsPage = lazyPage(() => loadEnvironmentsPage().then((m) => m.EnvironmentsPage));
const EnvironmentPage = lazyPage<{ id: number }>(() => loadEnvironmentPage().then((m) => m.EnvironmentPage));
const MergeTrainsPage = lazyPage(() => loadMergeTrainsPage().then((m) => m.MergeTrainsPage));
const ArtifactsBrowserPage = lazyPage<{ id: number; path: string }>(() => loadArtifactsBrowserPage().then((m) => m.ArtifactsBrowserPage));
const EditFilePage = lazyPage<{ refAndPath: string }>(() => loadEditFilePage().then((m) => m.EditFilePage));

/** The tab a page belongs to; none for 'Page not found'. */
function sectionOf(page: ProjectPage): ProjectSection | null {
  switch (page.kind) {
    case 'unknown':
      return null;
    case 'settings':
      return 'settings';
    case 'commits':
    case 'commit':
      return 'commits';
    case 'branches':
      return 'branches';
    case 'members':
      return 'members';
    case 'labels':
      return 'labels';
    case 'milestones':
      return 'milestones';
    case 'merge-requests':
    case 'new-merge-request':
    case 'merge-request':
    case 'merge-trains':
      return 'merge-requests';
    case 'pipelines':
    case 'new-pipeline':
    case 'pipeline':
      return 'pipelines';
    case 'jobs':
    case 'job':
    case 'job-artifacts':
      return 'jobs';
    case 'environments':
    case 'environment':
      return 'environments';
    default:
      return 'code';
  }
}

function PageFor({ project, page }: { project: Project; page: ProjectPage }) {
  switch (page.kind) {
    case 'overview':
      return <ProjectOverviewPage project={project} />;
    case 'tree':
      return <TreePage project={project} refAndPath={page.refAndPath} />;
    case 'blob':
      return <BlobPage project={project} refAndPath={page.refAndPath} />;
    case 'commits':
      return <CommitsPage project={project} refAndPath={page.refAndPath || project.default_branch || ''} />;
    case 'commit':
      return <CommitPage project={project} sha={page.sha} />;
    case 'branches':
      return <BranchesPage project={project} />;
    case 'members':
      return <ProjectMembersPage project={project} />;
    case 'labels':
      return <ProjectLabelsPage project={project} />;
    case 'milestones':
      return <ProjectMilestonesPage project={project} />;
    case 'merge-requests':
      return <MergeRequestsPage project={project} />;
    case 'new-merge-request':
      return <NewMergeRequestPage project={project} />;
    case 'merge-request':
      return <MergeRequestPage project={project} iid={page.iid} tab={page.tab} />;
    case 'new-fork':
      return <NewForkPage project={project} />;
    case 'edit':
      return <EditFilePage project={project} refAndPath={page.refAndPath} />;
    case 'new-file':
      return <NewFilePage project={project} refAndPath={page.refAndPath} />;
    case 'pipelines':
      return <PipelinesPage project={project} />;
    case 'new-pipeline':
      return <NewPipelinePage project={project} />;
    case 'pipeline':
      return <PipelinePage project={project} id={page.id} tab={page.tab} />;
    case 'jobs':
      return <JobsPage project={project} />;
    case 'job':
      return <JobPage project={project} id={page.id} />;
    case 'environments':
      return <EnvironmentsPage project={project} />;
    case 'environment':
      return <EnvironmentPage project={project} id={page.id} />;
    case 'merge-trains':
      return <MergeTrainsPage project={project} />;
    case 'job-artifacts':
      return <ArtifactsBrowserPage project={project} id={page.id} path={page.path} />;
    case 'settings':
      return <ProjectSettingsRoute project={project} section={page.section} />;
    case 'unknown':
      return <NotFoundPage />;
  }
}

const SETTINGS_TITLES: Record<ProjectSettingsPage, string> = { general: 'General', repository: 'Repository', merge_requests: 'Merge requests', ci_cd: 'CI/CD' };

/**
 * The document title's parts before the project's name, GitLab's order (most specific first);
 * null where the page names itself (a merge request needs its title; 'Page not found').
 */
function titleFor(page: ProjectPage): string[] | null {
  switch (page.kind) {
    case 'overview':
      return [];
    case 'tree':
      return ['Files'];
    case 'blob':
      return [page.refAndPath, 'Files'];
    case 'commits':
      return ['Commits'];
    case 'commit':
      return [page.sha.slice(0, 8), 'Commits'];
    case 'branches':
      return ['Branches'];
    case 'members':
      return ['Members'];
    case 'labels':
      return ['Labels'];
    case 'milestones':
      return ['Milestones'];
    case 'merge-requests':
      return ['Merge requests'];
    case 'new-merge-request':
      return ['New merge request', 'Merge requests'];
    case 'new-fork':
      return ['Fork project'];
    case 'edit':
      return ['Edit', page.refAndPath];
    case 'new-file':
      return ['New file', page.refAndPath];
    case 'pipelines':
      return ['Pipelines'];
    case 'new-pipeline':
      return ['New pipeline', 'Pipelines'];
    case 'pipeline':
      return [`Pipeline #${page.id}`, 'Pipelines'];
    case 'jobs':
      return ['Jobs'];
    case 'job':
      return [`Job #${page.id}`, 'Jobs'];
    case 'environments':
      return ['Environments'];
    case 'merge-trains':
      return ['Merge trains'];
    case 'job-artifacts':
      return ['Artifacts', `Job #${page.id}`, 'Jobs'];
    case 'settings':
      return [SETTINGS_TITLES[page.section], 'Settings'];
    case 'merge-request':
    case 'environment':
    case 'unknown':
      return null;
  }
}

/** `/<project path>/-/<page>`: the project frame and the page the URL names. */
export function ProjectRoute({ project, rest, page: given }: { project: Project; rest: string[] | null; page?: ProjectPage }) {
  const user = useOptionalUser();
  const parsed = given ?? parseProjectPage(rest);
  // Settings are for Maintainers and Owners (GitLab's admin_project); anyone else gets 'Page not found'.
  const page: ProjectPage = parsed.kind === 'settings' && userProjectLevel(project, user) < MAINTAINER ? { kind: 'unknown' } : parsed;
  const { pathname, search, hash } = useLocation();
  const title = titleFor(page);
  useDocumentTitle(title ? [...title, project.name_with_namespace] : null);
  // Writing pages of a project the visitor can read: sign in first, then back here (as GitLab).
  if (!user && projectPageNeedsUser(page)) return <Navigate to={urls.signIn(pathname + search + hash)} replace />;
  return (
    <ProjectLayout project={project} section={sectionOf(page)}>
      <Suspense fallback={<PageLoading />}>
        <PageFor project={project} page={page} />
      </Suspense>
    </ProjectLayout>
  );
}
