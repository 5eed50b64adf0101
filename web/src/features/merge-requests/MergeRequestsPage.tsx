import { GitMergeQueueIcon, GitPullRequestIcon } from '@primer/octicons-react';
import { Stack } from '@primer/react';
import { LinkButton } from '../../components/AppLink';
import type { Project } from '../../lib/gitlab-types';
import { canCreateBranch } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { MergeRequestList } from './MergeRequestList';
import styles from './MergeRequestList.module.css';

/** `/<path>/-/merge_requests`: the project's merge requests. */
export function MergeRequestsPage({ project }: { project: Project }) {
  const user = useOptionalUser();
  // Anyone who can push a branch (or fork) can propose one; Developers get the button here.
  const canCreate = !project.empty_repo && canCreateBranch(userProjectLevel(project, user));
  const newButton = canCreate ? (
    <LinkButton to={urls.newMergeRequest(project.path_with_namespace)} variant="primary" leadingVisual={GitPullRequestIcon}>
      New merge request
    </LinkButton>
  ) : null;
  // GitLab puts 'Merge trains' above the list of merge requests of a project that runs them
  const trains = project.merge_trains_enabled === true && project.merge_pipelines_enabled === true;
  return (
    <Stack gap="normal">
      <div className={styles.filters}>
        <span className={styles.spacer} />
        {trains ? (
          <LinkButton to={urls.mergeTrains(project.path_with_namespace)} leadingVisual={GitMergeQueueIcon}>
            Merge trains
          </LinkButton>
        ) : null}
        {newButton}
      </div>
      <MergeRequestList
        scope={project.id}
        usersProjectId={project.id}
        emptyDescription="Merge requests are a place to propose changes you've made to a project and discuss those changes with others."
        emptyAction={newButton}
      />
    </Stack>
  );
}
