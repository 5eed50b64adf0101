import { GitBranchIcon, GitPullRequestIcon, TrashIcon } from '@primer/octicons-react';
import { IconButton, Label, useConfirm } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { TimeAgo } from '../../components/TimeAgo';
import { errorMessage } from '../../lib/api-error';
import type { Branch, Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { deleteBranchMutation } from './api';
import styles from './BranchRow.module.css';

/** A branch: name, default/protected/merged badges, its last commit; delete when allowed. */
export function BranchRow({ project, branch, canDelete, canPropose = false }: { project: Project; branch: Branch; canDelete: boolean; canPropose?: boolean }) {
  const fullPath = project.path_with_namespace;
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const remove = useMutation({
    ...deleteBranchMutation(project.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['projects', project.id] }),
  });

  async function askAndDelete() {
    const confirmed = await confirm({
      title: 'Delete branch. Are you ABSOLUTELY SURE?',
      content: (
        <>
          You’re about to permanently delete the branch <strong>{branch.name}</strong>. Commits that are only on this branch will be lost.
        </>
      ),
      confirmButtonContent: 'Yes, delete branch',
      confirmButtonType: 'danger',
    });
    if (confirmed) remove.mutate(branch.name);
  }

  return (
    <li className={styles.row}>
      <div className={styles.main}>
        <div className={styles.nameLine}>
          <GitBranchIcon className="fgMuted" />
          <RouterLink to={urls.tree(fullPath, branch.name)} className={styles.name}>
            {branch.name}
          </RouterLink>
          {branch.default ? <Label variant="accent">default</Label> : null}
          {branch.protected ? <Label variant="success">protected</Label> : null}
          {branch.merged && !branch.default ? <Label variant="done">merged</Label> : null}
        </div>
        <div className={styles.commit}>
          <RouterLink to={urls.commit(fullPath, branch.commit.id)} className={styles.sha}>
            {branch.commit.short_id}
          </RouterLink>{' '}
          · {branch.commit.title} · <TimeAgo date={branch.commit.committed_date} />
        </div>
        {remove.isError ? (
          <div className={styles.error} role="alert">
            The branch could not be deleted: {errorMessage(remove.error)}
          </div>
        ) : null}
      </div>
      {canPropose && !branch.default ? (
        <LinkButton to={urls.newMergeRequest(fullPath, { source_branch: branch.name })} size="small" leadingVisual={GitPullRequestIcon} aria-label={`New merge request from ${branch.name}`}>
          Merge request
        </LinkButton>
      ) : null}
      {canDelete ? (
        <IconButton
          icon={TrashIcon}
          variant="danger"
          size="small"
          aria-label={`Delete branch ${branch.name}`}
          loading={remove.isPending}
          onClick={() => void askAndDelete()}
        />
      ) : null}
    </li>
  );
}
