import { createClient } from 'graphql-ws/client';
import { useEffect, useRef } from 'react';
import { graphqlSocketUrl } from '../useMergeStatusSubscription';

/** GitLab's subscription for the approvals section; the server pushes it on every approval change. */
export const APPROVAL_STATE_UPDATED_SUBSCRIPTION = /* GraphQL */ `
  subscription mergeRequestApprovalStateUpdated($issuableId: IssuableID!) {
    mergeRequestApprovalStateUpdated(issuableId: $issuableId) {
      ... on MergeRequest {
        id
      }
    }
  }
`;

/**
 * Calls `onUpdate` on every mergeRequestApprovalStateUpdated message for one merge request (and
 * when the socket comes back, since what happened while it was down was not heard). The widget's
 * own fallback poll covers the time the socket is down.
 */
export function useApprovalStateSubscription(issuableId: string | null, onUpdate: () => void): void {
  const onUpdateRef = useRef(onUpdate);
  onUpdateRef.current = onUpdate;
  useEffect(() => {
    if (!issuableId) return;
    let everConnected = false;
    const client = createClient({
      url: graphqlSocketUrl(window.location),
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => true,
      on: {
        connected: () => {
          if (everConnected) onUpdateRef.current();
          everConnected = true;
        },
      },
    });
    const unsubscribe = client.subscribe(
      { query: APPROVAL_STATE_UPDATED_SUBSCRIPTION, variables: { issuableId } },
      { next: () => onUpdateRef.current(), error: () => {}, complete: () => {} },
    );
    return () => {
      unsubscribe();
      void client.dispose();
    };
  }, [issuableId]);
}
