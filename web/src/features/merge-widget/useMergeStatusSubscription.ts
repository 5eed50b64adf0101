import { MERGE_STATUS_UPDATED_SUBSCRIPTION, type MergeStatusUpdatedPayload } from '@tributary/contracts/merge-widget';
import { createClient, type Client } from 'graphql-ws/client';
import { useEffect, useRef, useState } from 'react';
import { GRAPHQL_PATH } from './api';

/** ws://host/api/graphql (wss:// behind TLS): the same origin, so the session cookie goes along. */
export function graphqlSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${GRAPHQL_PATH}`;
}

/**
 * The widget's one live channel: mergeRequestMergeStatusUpdated over
 * graphql-ws, for one merge request. `onUpdate` runs on every message (with what it carries),
 * and again whenever the socket comes back (what happened while it was down was not heard). Returns the
 * channel's state; while it is down, the widget falls back to polling.
 */
export type ChannelState = 'connecting' | 'live' | 'down';

export function useMergeStatusSubscription(issuableId: string | null, onUpdate: (message?: MergeStatusUpdatedPayload) => void): ChannelState {
  const [channel, setChannel] = useState<ChannelState>('connecting');
  const onUpdateRef = useRef(onUpdate);
  onUpdateRef.current = onUpdate;

  useEffect(() => {
    if (!issuableId) return;
    let everConnected = false;
    let disposed = false;
    const client: Client = createClient({
      url: graphqlSocketUrl(window.location),
      // The session cookie authenticates the upgrade (the server checks its Origin); no token is sent.
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => true,
      on: {
        connected: () => {
          if (disposed) return;
          setChannel('live');
          if (everConnected) onUpdateRef.current();
          everConnected = true;
        },
        closed: () => {
          if (!disposed) setChannel('down');
        },
      },
    });
    const unsubscribe = client.subscribe<MergeStatusUpdatedPayload>(
      { query: MERGE_STATUS_UPDATED_SUBSCRIPTION, variables: { issuableId } },
      {
        next: (message) => onUpdateRef.current(message.data ?? undefined),
        // A refused subscription (or a server without it) is a dead channel: poll instead.
        error: () => {
          if (!disposed) setChannel('down');
        },
        complete: () => {
          if (!disposed) setChannel('down');
        },
      },
    );
    return () => {
      disposed = true;
      unsubscribe();
      void client.dispose();
    };
  }, [issuableId]);

  return channel;
}
