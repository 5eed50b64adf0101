import { GitPullRequestIcon } from '@primer/octicons-react';
import { Button, Flash } from '@primer/react';
import { useQueryClient } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { TimeAgo } from '../../../components/TimeAgo';
import type { MergeRequest, Project } from '../../../lib/gitlab-types';
import { useStateChange } from '../../merge-requests';
import { mergeWidgetKeys } from '../api';
import { commitSummary } from '../commit-summary';
import { MSG } from '../messages';
import styles from '../MergeWidget.module.css';
import { RichMessage } from '../RichMessage';
import { StatePanel } from '../StatePanel';
import branchName from '../../../components/BranchName.module.css';

/**
 * Closed: who closed it and when, the merge details, and Reopen for signed-in
 * users, which sends state_event=reopen and reloads everything about the merge request.
 */
export function ClosedPanel({ project, mr, data, signedIn }: { project: Project; mr: MergeRequest; data: MergeRequestWidgetData; signedIn: boolean }) {
  const queryClient = useQueryClient();
  const reopen = useStateChange(project, mr);
  const summary = commitSummary({ state: 'closed', ffOnly: false, squash: false, commitCount: data.commitCount });
  return (
    <StatePanel
      status="closed"
      title={
        <span>
          <strong>{data.closedBy ? t(MSG.closedBy, { name: data.closedBy.name }) : t(MSG.closed)}</strong> <TimeAgo date={data.closedAt} />
        </span>
      }
      actions={
        signedIn ? (
          <Button
            size="small"
            leadingVisual={GitPullRequestIcon}
            loading={reopen.isPending}
            onClick={() => reopen.mutate({ state_event: 'reopen' }, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: mergeWidgetKeys.all }) })}
          >
            {t(MSG.reopen)}
          </Button>
        ) : null
      }
    >
      <p className={styles.detailsHeading}>{t(MSG.mergeDetails)}</p>
      <ul className={styles.details}>
        <li>
          <RichMessage message={summary.message} values={summary.values} slots={{ targetBranch: <span className={branchName.branch}>{data.targetBranch}</span> }} />
        </li>
      </ul>
      {reopen.isError ? (
        <Flash variant="danger" role="alert">
          {t(MSG.reopenError)}
        </Flash>
      ) : null}
    </StatePanel>
  );
}
