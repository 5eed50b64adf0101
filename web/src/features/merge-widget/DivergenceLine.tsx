import { Button, Spinner } from '@primer/react';
import { useMutation } from '@tanstack/react-query';
import { n, t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { useState } from 'react';
import { AppLink } from '../../components/AppLink';
import { ApiError, messageForStatus } from '../../lib/api-error';
import { urls } from '../../lib/routes';
import { rebaseMutation } from './api';
import { canRebase } from './merge-button';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';
import { RebaseDialog } from './RebaseDialog';
import { RichMessage } from './RichMessage';
import type { WidgetAlert } from './WidgetAlert';

/** The server's message, or 'Failed to rebase. Please try again.' when it sent none. */
function rebaseErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status !== 0 && error.message !== messageForStatus(error.status)) return error.message;
  return t(MSG.rebaseFailed);
}

/**
 * '%d commit behind the target branch' with 'Rebase source branch' and its confirmation
 * dialog. Rebase is offered when the source is behind and the user may push
 * to it; PUT …/rebase answers 202 and the branch moves on the server.
 */
export function DivergenceLine({
  data,
  fullPath,
  projectId,
  onRebaseScheduled,
  onRefetch,
  onAlert,
}: {
  data: MergeRequestWidgetData;
  fullPath: string;
  projectId: number;
  onRebaseScheduled: () => void;
  onRefetch: () => void;
  onAlert: (alert: WidgetAlert) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const rebase = useMutation({
    ...rebaseMutation(projectId, Number(data.iid)),
    onSuccess: () => {
      onAlert({ variant: 'success', text: t(MSG.rebaseScheduled, { branch: data.sourceBranch }) });
      onRebaseScheduled();
      onRefetch();
    },
    onError: (error) => onAlert({ variant: 'danger', text: rebaseErrorText(error) }),
  });
  if (data.divergedCommitsCount <= 0) return null;
  const behind = n(MSG.commitsBehindOne, MSG.commitsBehindMany, data.divergedCommitsCount);
  const inProgress = data.rebaseInProgress || rebase.isPending;
  return (
    <li>
      <RichMessage message={MSG.divergence} slots={{ link: <AppLink to={urls.commits(fullPath, data.targetBranch)}>{behind}</AppLink> }} />{' '}
      {inProgress ? (
        <span className={styles.muted}>
          <Spinner size="small" srText={null} /> {t(MSG.rebaseInProgress)}
        </span>
      ) : canRebase({ divergedCommitsCount: data.divergedCommitsCount, pushToSourceBranch: data.userPermissions.pushToSourceBranch }) ? (
        <Button size="small" variant="link" onClick={() => setConfirming(true)}>
          {t(MSG.rebaseSourceBranch)}
        </Button>
      ) : null}
      {confirming ? (
        <RebaseDialog
          onCancel={() => setConfirming(false)}
          onRebase={() => {
            setConfirming(false);
            rebase.mutate();
          }}
        />
      ) : null}
    </li>
  );
}
