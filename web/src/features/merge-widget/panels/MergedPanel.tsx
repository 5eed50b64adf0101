import { TrashIcon } from '@primer/octicons-react';
import { Button, Flash, Link, Spinner } from '@primer/react';
import { useMutation } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import { useState } from 'react';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { Link as RouterLink } from 'react-router-dom';
import { CopyButton } from '../../../components/CopyButton';
import { TimeAgo } from '../../../components/TimeAgo';
import { urls } from '../../../lib/routes';
import { deleteBranchMutation } from '../api';
import { commitSummary } from '../commit-summary';
import { MSG } from '../messages';
import type { PickKind } from '../pick';
import { PickDialog } from '../PickDialog';
import { PICK_MSG } from './pick-messages';
import styles from '../MergeWidget.module.css';
import { RichMessage } from '../RichMessage';
import { StatePanel } from '../StatePanel';
import branchName from '../../../components/BranchName.module.css';

const SHORT_SHA = 8;

/**
 * Merged: merged by whom and when, and the merge details: the merge commit
 * with its link, whether the source branch was deleted, and a button to delete it when it
 * still exists and the user may; Revert and Cherry-pick of the merge commit (PickDialog).
 */
export function MergedPanel({
  data,
  fullPath,
  sourceProjectId,
  targetProjectId,
  canPush,
  ffOnly,
  removingSourceBranch,
  deleteBranchError,
  onBranchDeleted,
}: {
  data: MergeRequestWidgetData;
  fullPath: string;
  sourceProjectId: number | null;
  targetProjectId: number;
  /** Whether the user may push to the target project (else Revert / Cherry-pick say they cannot). */
  canPush: boolean;
  ffOnly: boolean;
  removingSourceBranch: boolean;
  deleteBranchError: boolean;
  onBranchDeleted: () => void;
}) {
  const remove = useMutation({ ...deleteBranchMutation(sourceProjectId ?? 0), onSuccess: onBranchDeleted });
  const mergedBy = data.mergedBy ?? data.mergeUser;
  const sha = data.mergeCommitSha ?? data.squashCommitSha;
  const squashed = data.squashCommitSha !== null;
  const summary = commitSummary({ state: 'merged', ffOnly, squash: squashed, commitCount: data.commitCount });
  const removing = removingSourceBranch || remove.isPending;
  const [picking, setPicking] = useState<PickKind | null>(null);
  const canDelete = data.sourceBranchExists && data.userPermissions.removeSourceBranch && sourceProjectId !== null && !removing;
  return (
    <StatePanel
      status="merged"
      title={
        <span>
          <strong>{mergedBy ? t(MSG.mergedBy, { name: mergedBy.name }) : t(MSG.merged)}</strong> <TimeAgo date={data.mergedAt} />
        </span>
      }
      actions={
        <>
          {sha && data.userPermissions.revertOnCurrentMergeRequest ? (
            <Button size="small" onClick={() => setPicking('revert')}>
              {t(PICK_MSG.revert)}
            </Button>
          ) : null}
          {sha && data.userPermissions.cherryPickOnCurrentMergeRequest ? (
            <Button size="small" onClick={() => setPicking('cherry-pick')}>
              {t(PICK_MSG.cherryPick)}
            </Button>
          ) : null}
          {canDelete ? (
            <Button size="small" leadingVisual={TrashIcon} onClick={() => remove.mutate(data.sourceBranch)}>
              {t(MSG.deleteSourceBranch)}
            </Button>
          ) : null}
        </>
      }
    >
      <p className={styles.detailsHeading}>{t(MSG.mergeDetails)}</p>
      <ul className={styles.details}>
        {sha ? (
          <li>
            <RichMessage
              message={summary.message}
              values={summary.values}
              slots={{
                targetBranch: <span className={branchName.branch}>{data.targetBranch}</span>,
                mergeCommitSha: (
                  <Link as={RouterLink} to={urls.commit(fullPath, sha)} className={styles.sha}>
                    {sha.slice(0, SHORT_SHA)}
                  </Link>
                ),
              }}
            />{' '}
            <CopyButton text={sha} label="Copy commit SHA" size="small" />
          </li>
        ) : null}
        <li data-testid="source-branch-deleted-text">
          {removing ? (
            <span>
              <Spinner size="small" srText={null} /> {t(MSG.sourceBranchBeingDeleted)}
            </span>
          ) : data.sourceBranchExists ? (
            t(MSG.sourceBranchNotDeleted)
          ) : (
            t(MSG.sourceBranchDeleted)
          )}
        </li>
      </ul>
      {remove.isError ? (
        <Flash variant="danger" role="alert">
          {t(MSG.genericError)}
        </Flash>
      ) : null}
      {picking && sha ? (
        <PickDialog
          kind={picking}
          sha={sha}
          projectId={targetProjectId}
          fullPath={fullPath}
          defaultBranch={data.targetBranch}
          canPush={canPush}
          onClose={() => setPicking(null)}
        />
      ) : null}
      {deleteBranchError ? (
        <Flash variant="danger" role="alert">
          {t(MSG.deleteBranchPollError)}
        </Flash>
      ) : null}
    </StatePanel>
  );
}
