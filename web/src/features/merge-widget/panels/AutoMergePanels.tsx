import { Button } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { useMutation } from '@tanstack/react-query';
import { cancelAutoMergeMutation } from '../api';
import { MSG } from '../messages';
import { StatePanel } from '../StatePanel';
import type { WidgetAlert } from '../WidgetAlert';
import { mergeRequestErrorAlert } from '../WidgetAlert';

const TRAIN_STRATEGIES = new Set(['merge_train', 'add_to_merge_train_when_checks_pass']);

/** GitLab labels the cancel 'Remove from merge train' for a merge-train strategy. */
function cancelLabel(strategy: string | null): string {
  return t(strategy !== null && TRAIN_STRATEGIES.has(strategy) ? MSG.removeFromMergeTrain : MSG.cancelAutoMerge);
}

/** The Cancel auto-merge button (shown to who may cancel: who may merge, or the author). */
function CancelAutoMerge({ projectId, iid, strategy, onCancelled, onAlert }: { projectId: number; iid: number; strategy: string | null; onCancelled: () => void; onAlert: (alert: WidgetAlert) => void }) {
  const cancel = useMutation({
    ...cancelAutoMergeMutation(projectId, iid),
    onSuccess: onCancelled,
    // the error catalogue's 'Something went wrong. Please try again.'
    onError: () => onAlert(mergeRequestErrorAlert(undefined)),
  });
  return (
    <Button size="small" loading={cancel.isPending} onClick={() => cancel.mutate()}>
      {cancelLabel(strategy)}
    </Button>
  );
}

/**
 * 'auto-merge enabled': who set it, that it merges when all merge checks pass, and
 * Cancel auto-merge for who may cancel it. The merge checks show below it.
 */
export function AutoMergeEnabledPanel(props: { data: MergeRequestWidgetData; projectId: number; iid: number; canCancel: boolean; onCancelled: () => void; onAlert: (alert: WidgetAlert) => void }) {
  const { data } = props;
  const setBy = TRAIN_STRATEGIES.has(data.autoMergeStrategy ?? '') ? MSG.autoMergeSetByTrain : MSG.autoMergeSetBy;
  return (
    <StatePanel
      status="info"
      label="Auto-merge"
      title={<strong>{t(setBy, { mergeAuthor: data.mergeUser?.name ?? '' })}</strong>}
      actions={props.canCancel ? <CancelAutoMerge projectId={props.projectId} iid={props.iid} strategy={data.autoMergeStrategy} onCancelled={props.onCancelled} onAlert={props.onAlert} /> : null}
    />
  );
}

/** 'auto-merge failed': the merge error followed by 'This merge request failed to be merged automatically'. */
export function AutoMergeFailedPanel(props: { data: MergeRequestWidgetData; projectId: number; iid: number; canCancel: boolean; onCancelled: () => void; onRefresh: () => void; onAlert: (alert: WidgetAlert) => void }) {
  const { data } = props;
  const error = (data.mergeError ?? '').replace(/\.$/, '');
  return (
    <StatePanel
      status="failed"
      label="Auto-merge failed"
      title={
        <strong>
          {error ? `${error}. ` : ''}
          {t(MSG.autoMergeFailed)}
        </strong>
      }
      actions={
        <>
          <Button size="small" onClick={props.onRefresh}>
            {t(MSG.refresh)}
          </Button>
          {props.canCancel ? <CancelAutoMerge projectId={props.projectId} iid={props.iid} strategy={data.autoMergeStrategy} onCancelled={props.onCancelled} onAlert={props.onAlert} /> : null}
        </>
      }
    />
  );
}
