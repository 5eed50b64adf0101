import { createClient, type Client } from 'graphql-ws/client';
import { useEffect, useRef, useState } from 'react';

/**
 * The pipeline pages' live channel: GitLab's GraphQL subscriptions over graphql-ws, the
 * mechanism the merge request page uses. A message says "this moved"; the page then reads the
 * REST API again. While the socket is not live the pages poll instead (FALLBACK_POLL_MS), and
 * neither polls nor reads while the browser tab is hidden (a message heard meanwhile is read
 * once the tab is shown again).
 */
export const PROJECT_PIPELINES_UPDATED = 'subscription ($projectId: ProjectID!) { ciPipelineStatusesUpdated(projectId: $projectId) { id status } }';
export const PIPELINE_UPDATED = 'subscription ($pipelineId: CiPipelineID!) { ciPipelineStatusUpdated(pipelineId: $pipelineId) { id status } }';
export const JOB_UPDATED = 'subscription ($jobId: CiBuildID!) { ciJobStatusUpdated(jobId: $jobId) { id status } }';
export const JOB_TRACE_UPDATED = 'subscription ($jobId: CiBuildID!) { ciJobTraceUpdated(jobId: $jobId) { id } }';

export const projectGid = (id: number) => `gid://gitlab/Project/${id}`;
export const pipelineGid = (id: number) => `gid://gitlab/Ci::Pipeline/${id}`;
export const jobGid = (id: number) => `gid://gitlab/Ci::Build/${id}`;

/** How often a page reads again while its live channel is down (GitLab's pipeline pages poll every few seconds). */
export const FALLBACK_POLL_MS = 3_000;

export type LiveState = 'connecting' | 'live' | 'down';

/** ws://host/api/graphql (wss:// behind TLS): the same origin, so the session cookie goes along. */
const socketUrl = (location: Pick<Location, 'protocol' | 'host'>) => `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/graphql`;

const isHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

/**
 * Subscribes to `query` with `variables` (null: not yet) and calls `onUpdate` for every message,
 * again when the socket comes back (what happened while it was down was not heard), and once when
 * a hidden tab is shown after messages arrived while it was hidden.
 */
export function useLiveUpdates(query: string, variables: Record<string, unknown> | null, onUpdate: () => void): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const onUpdateRef = useRef(onUpdate);
  onUpdateRef.current = onUpdate;
  const key = variables === null ? null : JSON.stringify(variables);

  useEffect(() => {
    if (key === null) return;
    let disposed = false;
    let everConnected = false;
    let missed = false;
    const update = () => {
      if (disposed) return;
      if (isHidden()) missed = true;
      else onUpdateRef.current();
    };
    const onVisibility = () => {
      if (!isHidden() && missed) {
        missed = false;
        onUpdateRef.current();
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    const client: Client = createClient({
      url: socketUrl(window.location),
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => true,
      on: {
        connected: () => {
          if (disposed) return;
          setState('live');
          if (everConnected) update();
          everConnected = true;
        },
        closed: () => {
          if (!disposed) setState('down');
        },
      },
    });
    const unsubscribe = client.subscribe(
      { query, variables: JSON.parse(key) as Record<string, unknown> },
      {
        next: update,
        // A refused subscription is a dead channel: the page polls instead.
        error: () => {
          if (!disposed) setState('down');
        },
        complete: () => {
          if (!disposed) setState('down');
        },
      },
    );
    return () => {
      disposed = true;
      document.removeEventListener('visibilitychange', onVisibility);
      unsubscribe();
      void client.dispose();
    };
  }, [query, key]);

  return state;
}

/**
 * `run` at most once at a time: a call while it runs makes it run once more afterwards (a
 * burst of messages is one or two reads, never a pile, and the last change is always read).
 */
export function coalesce(run: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  const start = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    void run()
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (again) start();
      });
  };
  return start;
}

/** `coalesce` for a component: the same function for the component's life, calling the latest `run`. */
export function useCoalesced(run: () => Promise<unknown>): () => void {
  const runRef = useRef(run);
  runRef.current = run;
  const [start] = useState(() => coalesce(() => runRef.current()));
  return start;
}
