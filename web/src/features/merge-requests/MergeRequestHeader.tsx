import { GitPullRequestClosedIcon, GitPullRequestIcon, PencilIcon } from '@primer/octicons-react';
import { Button, Flash, Heading, StateLabel } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import { Link as RouterLink } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { CopyButton } from '../../components/CopyButton';
import { EntityAvatar } from '../../components/EntityAvatar';
import { TimeAgo } from '../../components/TimeAgo';
import { errorMessage } from '../../lib/api-error';
import { isDraftTitle, titleWithDraft } from '../../lib/draft-title';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { MSG } from '../merge-widget';
import { mergeRequestKeys, updateMergeRequestMutation } from './api';
import styles from './MergeRequestPage.module.css';
import { stateBadge } from './state';
import branchName from '../../components/BranchName.module.css';

/** Close or reopen (PUT state_event), then refetch everything about it: the SPA's "reload the page". */
export function useStateChange(project: Project, mr: MergeRequest) {
  const queryClient = useQueryClient();
  return useMutation({
    ...updateMergeRequestMutation(project.id, mr.iid),
    onSuccess: (updated) => {
      queryClient.setQueryData(mergeRequestKeys.detail(project.id, mr.iid), updated);
      void queryClient.invalidateQueries({ queryKey: mergeRequestKeys.all });
    },
  });
}

export function BranchName({ name, fullPath }: { name: string; fullPath?: string }) {
  return fullPath ? (
    <RouterLink to={urls.tree(fullPath, name)} className={branchName.branch}>
      {name}
    </RouterLink>
  ) : (
    <code className={branchName.branch}>{name}</code>
  );
}

/**
 * Title, state badge, "<author> requested to merge <source> into <target> <time>", and
 * Edit, Mark as draft/ready, Close / Reopen for those who may update it.
 */
export function MergeRequestHeader({ project, mr, canUpdate, sourceProjectPath }: { project: Project; mr: MergeRequest; canUpdate: boolean; sourceProjectPath: string | null }) {
  const badge = stateBadge(mr);
  const fullPath = project.path_with_namespace;
  const change = useStateChange(project, mr);
  const draft = useStateChange(project, mr);
  const crossProject = mr.source_project_id !== mr.target_project_id;
  return (
    <header className={styles.header}>
      <div className={styles.titleRow}>
        <Heading as="h1" variant="medium" className={styles.title}>
          {mr.title} <span className={styles.reference}>{mr.references.short}</span>
        </Heading>
        {canUpdate ? (
          <div className={styles.headerActions}>
            <LinkButton to={urls.mergeRequest(fullPath, mr.iid, 'edit')} leadingVisual={PencilIcon} size="small">
              Edit
            </LinkButton>
            {mr.state === 'opened' ? (
              <>
                <Button size="small" loading={draft.isPending} onClick={() => draft.mutate({ title: titleWithDraft(mr.title, !isDraftTitle(mr.title)) })}>
                  {mr.draft ? 'Mark as ready' : 'Mark as draft'}
                </Button>
                <Button size="small" variant="danger" leadingVisual={GitPullRequestClosedIcon} loading={change.isPending} onClick={() => change.mutate({ state_event: 'close' })}>
                  Close merge request
                </Button>
              </>
            ) : mr.state === 'closed' ? (
              <Button size="small" leadingVisual={GitPullRequestIcon} loading={change.isPending} onClick={() => change.mutate({ state_event: 'reopen' })}>
                Reopen merge request
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      <div className={styles.meta}>
        <StateLabel status={badge.status}>{badge.label}</StateLabel>
        {mr.author ? <EntityAvatar name={mr.author.name} id={mr.author.id} src={mr.author.avatar_url} size={20} square={false} /> : null}
        <span>
          <strong>{mr.author?.name ?? 'A deleted user'}</strong> requested to merge{' '}
          {crossProject && sourceProjectPath ? <span className={styles.projectName}>{sourceProjectPath}:</span> : null}
          <BranchName name={mr.source_branch} fullPath={crossProject ? (sourceProjectPath ?? undefined) : fullPath} />
          <CopyButton text={mr.source_branch} label="Copy branch name" size="small" /> into <BranchName name={mr.target_branch} fullPath={fullPath} /> <TimeAgo date={mr.created_at} />
        </span>
      </div>
      {change.isError ? (
        <Flash variant="danger" role="alert">
          {change.variables?.state_event === 'reopen' ? t(MSG.reopenError) : `The merge request could not be closed: ${errorMessage(change.error)}`}
        </Flash>
      ) : null}
      {draft.isError ? (
        <Flash variant="danger" role="alert">
          The draft status could not be changed: {errorMessage(draft.error)}
        </Flash>
      ) : null}
    </header>
  );
}
