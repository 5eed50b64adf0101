import { useEffect, useRef, useState } from 'react';
import { pollDelay } from './polling';

function isHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}

/**
 * Polls the widget while `enabled` (the subscription is down and no failed-merge countdown
 * runs), with the delays of polling.ts: the server's Poll-Interval, backing off while the
 * data stays the same and slowing down in a hidden tab. `data` must keep its identity when
 * nothing changed (TanStack Query's structural sharing does that); `fetchedAt` changes on
 * every completed fetch.
 */
export function useFallbackPolling(input: { enabled: boolean; headerMs: number | null; data: unknown; fetchedAt: number; refetch: () => unknown }): void {
  const { enabled, headerMs, data, fetchedAt, refetch } = input;
  const [hidden, setHidden] = useState(isHidden);
  const unchangedPolls = useRef(0);
  const lastData = useRef(data);
  const refetchRef = useRef(refetch);
  refetchRef.current = refetch;

  useEffect(() => {
    const onChange = () => setHidden(isHidden());
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);

  useEffect(() => {
    if (lastData.current !== data) {
      lastData.current = data;
      unchangedPolls.current = 0;
    }
    if (!enabled) return;
    const delay = pollDelay({ headerMs, unchangedPolls: unchangedPolls.current, hidden });
    if (delay === null) return;
    const timer = setTimeout(() => {
      unchangedPolls.current += 1;
      void refetchRef.current();
    }, delay);
    return () => clearTimeout(timer);
  }, [enabled, headerMs, data, fetchedAt, hidden]);
}
