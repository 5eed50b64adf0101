import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { useEffect, useRef } from 'react';
import { MSG } from './messages';
import type { WidgetAlert } from './WidgetAlert';

/**
 * GitLab's MergeTrainPosition toast: when an open merge request's car goes away (removed, or
 * ejected by the train), 'Merge request was removed from the merge train.' A car that merged
 * leaves with the request merged, and says nothing.
 */
export function useTrainRemovalNotice(data: Pick<MergeRequestWidgetData, 'state' | 'mergeTrainCar'> | null, onAlert: (alert: WidgetAlert) => void): void {
  const carId = data ? (data.mergeTrainCar?.id ?? null) : undefined;
  const open = data?.state === 'opened';
  const last = useRef<string | null | undefined>(undefined);
  const onAlertRef = useRef(onAlert);
  onAlertRef.current = onAlert;
  useEffect(() => {
    if (carId === undefined) return;
    if (typeof last.current === 'string' && carId === null && open) onAlertRef.current({ variant: 'default', text: t(MSG.removedFromMergeTrain) });
    last.current = carId;
  }, [carId, open]);
}
