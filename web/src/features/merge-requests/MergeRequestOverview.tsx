import { CheckCircleIcon, GitMergeIcon, GitPullRequestClosedIcon, GitPullRequestDraftIcon, InfoIcon } from '@primer/octicons-react';
import { Button, Flash, Spinner } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { Link as RouterLink } from 'react-router-dom';
import { TimeAgo } from '../../components/TimeAgo';
import { isDraftTitle, titleWithDraft } from '../../lib/draft-title';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { REOPEN_ERROR, useStateChange } from './MergeRequestHeader';
import styles from './MergeRequestPage.module.css';
import { MergeRequestSidebar } from './MergeRequestSidebar';

const SHORT_SHA = 8;
/** GitLab's detailed_merge_status values that mean "still being worked out". */
const CHECKING = new Set(['unchecked', 'checking', 'preparing', 'approvals_syncing']);

/**
 * The state part of the merge request widget (spec 000 §2). Merging itself arrives with the
 * merge issue; this shows what is known: checking, draft, conflicts, closed (with Reopen,
 * signed-in users only, which sends state_event=reopen and reloads) and merged.
 */
function StatePanel({ project, mr, canUpdate }: { project: Project; mr: MergeRequest; canUpdate: boolean }) {
  const change = useStateChange(project, mr);
  const fullPath = project.path_with_namespace;
  if (mr.state === 'closed') {
    return (
      <div className={styles.panel}>
        <GitPullRequestClosedIcon className={styles.closedIcon} />
        <div className={styles.panelBody}>
          <strong>Closed</strong>
          {mr.closed_by ? (
            <span>
              {' '}
              by {mr.closed_by.name} <TimeAgo date={mr.closed_at} />
            </span>
          ) : null}
          {change.isError ? (
            <Flash variant="danger" role="alert" className={styles.panelError}>
              {t(REOPEN_ERROR)}
            </Flash>
          ) : null}
        </div>
        {canUpdate ? (
          <Button loading={change.isPending} onClick={() => change.mutate({ state_event: 'reopen' })}>
            Reopen
          </Button>
        ) : null}
      </div>
    );
  }
  if (mr.state === 'merged') {
    return (
      <div className={styles.panel}>
        <GitMergeIcon className={styles.mergedIcon} />
        <div className={styles.panelBody}>
          <strong>Merged</strong>
          {mr.merge_user ?? mr.merged_by ? <span> by {(mr.merge_user ?? mr.merged_by)!.name}</span> : null} <TimeAgo date={mr.merged_at} />
          {mr.merge_commit_sha ? (
            <div className="fgMuted">
              Changes merged into <code>{mr.target_branch}</code> with{' '}
              <RouterLink to={urls.commit(fullPath, mr.merge_commit_sha)}>
                <code>{mr.merge_commit_sha.slice(0, SHORT_SHA)}</code>
              </RouterLink>
              .
            </div>
          ) : null}
        </div>
      </div>
    );
  }
  if (CHECKING.has(mr.detailed_merge_status ?? '')) {
    return (
      <div className={styles.panel}>
        <Spinner size="small" srText={null} />
        <span>Checking if merge request can be merged…</span>
      </div>
    );
  }
  if (mr.draft) {
    return (
      <div className={styles.panel}>
        <GitPullRequestDraftIcon className="fgMuted" />
        <div className={styles.panelBody}>This merge request is still a draft. Mark it as ready when its changes can be reviewed and merged.</div>
        {canUpdate ? (
          <Button size="small" loading={change.isPending} onClick={() => change.mutate({ title: titleWithDraft(mr.title, !isDraftTitle(mr.title)) })}>
            Mark as ready
          </Button>
        ) : null}
      </div>
    );
  }
  if (mr.has_conflicts) {
    return (
      <div className={styles.panel}>
        <InfoIcon className={styles.closedIcon} />
        <div className={styles.panelBody}>The source branch has merge conflicts with {mr.target_branch}.</div>
      </div>
    );
  }
  return (
    <div className={styles.panel}>
      <CheckCircleIcon className={styles.readyIcon} />
      <div className={styles.panelBody}>
        {mr.user?.can_merge ? 'Ready to merge.' : 'Ready to merge by members who can write to the target branch.'}
      </div>
    </div>
  );
}

/** The Overview tab: description, the state panel, and the sidebar. */
export function MergeRequestOverview({ project, mr, canUpdate, sourceProjectPath }: { project: Project; mr: MergeRequest; canUpdate: boolean; sourceProjectPath: string | null }) {
  return (
    <div className={styles.overview}>
      <div className={styles.main}>
        <section aria-label="Description" className={styles.description}>
          {mr.description?.trim() ? <div className={styles.descriptionText}>{mr.description}</div> : <p className="fgMuted">No description provided.</p>}
        </section>
        <section aria-label="Merge status" className={styles.widget}>
          {mr.allow_collaboration && mr.state === 'opened' ? (
            <div className={styles.collaboration}>
              <InfoIcon /> Members who can merge are allowed to add commits.
            </div>
          ) : null}
          <StatePanel project={project} mr={mr} canUpdate={canUpdate} />
        </section>
      </div>
      <MergeRequestSidebar project={project} mr={mr} canUpdate={canUpdate} sourceProjectPath={sourceProjectPath} />
    </div>
  );
}
