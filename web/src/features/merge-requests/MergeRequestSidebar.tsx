import { Flash } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { t } from '@tributary/contracts';
import { CopyButton } from '../../components/CopyButton';
import { EntityAvatar } from '../../components/EntityAvatar';
import { TimeAgo } from '../../components/TimeAgo';
import { errorMessage } from '../../lib/api-error';
import type { MergeRequest, Project, UserBasic } from '../../lib/gitlab-types';
import { mergeRequestKeys, updateMergeRequestMutation } from './api';
import { MERGE_OPTION, squashOptionText } from './merge-options';
import { BranchName } from './MergeRequestHeader';
import styles from './MergeRequestPage.module.css';
import { UsersSelect } from './UserSelect';
import { MergeRequestLabelsAndMilestone } from '../labels';

function People({ users, none }: { users: UserBasic[]; none: string }) {
  if (users.length === 0) return <span className="fgMuted">{none}</span>;
  return (
    <ul className={styles.people}>
      {users.map((user) => (
        <li key={user.id}>
          <EntityAvatar name={user.name} id={user.id} src={user.avatar_url} size={24} square={false} />
          <span>
            {user.name} <span className="fgMuted">@{user.username}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Assignees and reviewers (editable with update rights), branches with copy buttons, options. */
export function MergeRequestSidebar({ project, mr, canUpdate, sourceProjectPath }: { project: Project; mr: MergeRequest; canUpdate: boolean; sourceProjectPath: string | null }) {
  const queryClient = useQueryClient();
  const update = useMutation({
    ...updateMergeRequestMutation(project.id, mr.iid),
    onSuccess: (updated) => {
      queryClient.setQueryData(mergeRequestKeys.detail(project.id, mr.iid), updated);
      void queryClient.invalidateQueries({ queryKey: mergeRequestKeys.lists() });
    },
  });
  const editable = canUpdate && mr.state !== 'merged';
  const crossProject = mr.source_project_id !== mr.target_project_id;
  return (
    <aside className={styles.sidebar} aria-label="Merge request details">
      {update.isError ? (
        <Flash variant="danger" role="alert">
          The merge request could not be updated: {errorMessage(update.error)}
        </Flash>
      ) : null}
      <section className={styles.sideBlock}>
        <div className={styles.sideHead}>
          <h2>Assignees</h2>
          {editable ? <UsersSelect label="Assignees" compact projectId={project.id} selected={mr.assignees} onChange={(users) => update.mutate({ assignee_ids: users.map((user) => user.id) })} /> : null}
        </div>
        <People users={mr.assignees} none="None" />
      </section>
      <section className={styles.sideBlock}>
        <div className={styles.sideHead}>
          <h2>Reviewers</h2>
          {editable ? <UsersSelect label="Reviewers" compact projectId={project.id} selected={mr.reviewers} onChange={(users) => update.mutate({ reviewer_ids: users.map((user) => user.id) })} /> : null}
        </div>
        <People users={mr.reviewers} none="None" />
      </section>
      <MergeRequestLabelsAndMilestone
        projectId={project.id}
        mr={mr}
        editable={editable}
        blockClassName={styles.sideBlock}
        headClassName={styles.sideHead}
      />
      <section className={styles.sideBlock}>
        <h2>Source branch</h2>
        <div className={styles.branchLine}>
          {crossProject && sourceProjectPath ? <span className="fgMuted">{sourceProjectPath}:</span> : null}
          <BranchName name={mr.source_branch} />
          <CopyButton text={mr.source_branch} label="Copy source branch name" size="small" />
        </div>
      </section>
      <section className={styles.sideBlock}>
        <h2>Target branch</h2>
        <div className={styles.branchLine}>
          <BranchName name={mr.target_branch} />
          <CopyButton text={mr.target_branch} label="Copy target branch name" size="small" />
        </div>
      </section>
      <section className={styles.sideBlock}>
        <h2>Merge options</h2>
        <ul className={styles.options}>
          <li>{mr.force_remove_source_branch ? t(MERGE_OPTION.deleteSourceBranch) : 'Keep the source branch after merging'}</li>
          <li>{t(squashOptionText(mr))}</li>
        </ul>
      </section>
      <section className={styles.sideBlock}>
        <h2>Activity</h2>
        <span className="fgMuted">
          Created <TimeAgo date={mr.created_at} />, updated <TimeAgo date={mr.updated_at} />
        </span>
      </section>
    </aside>
  );
}
