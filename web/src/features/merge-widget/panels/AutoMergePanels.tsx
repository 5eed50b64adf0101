import { Button } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { useMutation } from '@tanstack/react-query';
import { AppLink } from '../../../components/AppLink';
import { urls } from '../../../lib/routes';
import { cancelAutoMergeMutation } from '../api';
import { autoMergeStatus } from '../auto-merge-status';
import { MSG } from '../messages';
import { StatePanel } from '../StatePanel';
import type { WidgetAlert } from '../WidgetAlert';
import { mergeRequestErrorAlert } from '../WidgetAlert';

/** The Cancel auto-merge button (shown to who may cancel: who may merge, or the author). */
function CancelAutoMerge({ projectId, iid, label, onCancelled, onAlert }: { projectId: number; iid: number; label: string; onCancelled: () => void; onAlert: (alert: WidgetAlert) => void }) {
  const cancel = useMutation({
    ...cancelAutoMergeMutation(projectId, iid),
    onSuccess: onCancelled,
    // the error catalogue's 'Something went wrong. Please try again.'
    onError: () => onAlert(mergeRequestErrorAlert(undefined)),
  });
  return (
    <Button size="small" loading={cancel.isPending} onClick={() => cancel.mutate()}>
      {label}
    </Button>
  );
}

/**
 * 'auto-merge enabled': who set it, that it merges when all merge checks pass (or its place on
 * the merge train, once it is a car, with GitLab's 'View merge train details.' link to the
 * project's merge trains page), and Cancel auto-merge ('Remove from merge train') for who may
 * cancel it. The merge checks show below it.
 */
export function AutoMergeEnabledPanel(props: { data: MergeRequestWidgetData; fullPath: string; projectId: number; iid: number; canCancel: boolean; onCancelled: () => void; onAlert: (alert: WidgetAlert) => void }) {
  const status = autoMergeStatus(props.data);
  return (
    <StatePanel
      status="info"
      label="Auto-merge"
      title={<strong>{status.title}</strong>}
      actions={props.canCancel ? <CancelAutoMerge projectId={props.projectId} iid={props.iid} label={status.cancelLabel} onCancelled={props.onCancelled} onAlert={props.onAlert} /> : null}
    >
      {status.position ? (
        <p>
          <span>{status.position}</span> <AppLink to={urls.mergeTrains(props.fullPath)}>{t(MSG.viewMergeTrainDetails)}</AppLink>
        </p>
      ) : null}
    </StatePanel>
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
          {props.canCancel ? <CancelAutoMerge projectId={props.projectId} iid={props.iid} label={autoMergeStatus(data).cancelLabel} onCancelled={props.onCancelled} onAlert={props.onAlert} /> : null}
        </>
      }
    />
  );
}
