import { Button } from '@primer/react';
import { n, t } from '@tributary/contracts/i18n';
import { WIDGET_POLLING } from '@tributary/contracts/merge-widget';
import { useEffect, useRef, useState } from 'react';
import { failedToMergeText } from '../merge-error';
import { MSG } from '../messages';
import { StatePanel } from '../StatePanel';

/**
 * The merge failed: the error, a 10-second countdown that then refreshes the
 * widget, and 'Refresh now' to do it sooner. The widget stops polling while this shows.
 */
export function FailedToMergePanel({ mergeError, onRefresh }: { mergeError: string | null; onRefresh: () => void }) {
  const [seconds, setSeconds] = useState<number>(WIDGET_POLLING.failedToMergeCountdownSeconds);
  const [refreshing, setRefreshing] = useState(false);
  const onRefreshRef = useRef(onRefresh);
  onRefreshRef.current = onRefresh;

  useEffect(() => {
    if (refreshing) return;
    if (seconds <= 0) {
      setRefreshing(true);
      onRefreshRef.current();
      return;
    }
    const timer = window.setTimeout(() => setSeconds((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds, refreshing]);

  if (refreshing) return <StatePanel status="loading" title={<strong>{t(MSG.refreshingNow)}</strong>} />;
  return (
    <StatePanel
      status="warning"
      title={
        <span>
          <strong>{failedToMergeText(mergeError)}</strong> <span>{n(MSG.refreshingIn, MSG.refreshingInMany, seconds)}</span>
        </span>
      }
      actions={
        <Button
          size="small"
          onClick={() => {
            setRefreshing(true);
            onRefresh();
          }}
        >
          {t(MSG.refreshNow)}
        </Button>
      }
    />
  );
}
