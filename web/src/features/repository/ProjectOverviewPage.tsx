import type { Project } from '../../lib/gitlab-types';
import { CloneBox } from './CloneBox';
import { EmptyRepository } from './EmptyRepository';
import { RecentPushBanner } from '../merge-requests';
import { RepositoryBrowser } from './RepositoryBrowser';

/** `/<project path>`: the repository at its default branch, or the empty-repository instructions. */
export function ProjectOverviewPage({ project }: { project: Project }) {
  if (project.empty_repo || !project.default_branch) return <EmptyRepository project={project} />;
  return (
    <>
      <RecentPushBanner project={project} />
      <RepositoryBrowser project={project} ref={project.default_branch} path="" aside={<CloneBox url={project.http_url_to_repo} />} />
    </>
  );
}
