import { useMutation } from '@tanstack/react-query';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-error';
import { mergeMutation, type WidgetResult } from './api';
import type { MergeRequestPayload } from './merge-button';
import { INITIAL_MACHINE_STATE, transition, transitionForServerState, type MachineEvent, type MachineState } from './merge-machine';
import { MERGING_POLL_MS } from './polling';
import { mergeRequestErrorAlert, type WidgetAlert } from './WidgetAlert';
import type { WidgetStateName } from './widget-state';

type Refetch = () => Promise<{ data?: WidgetResult; isError: boolean }>;

/**
 * What happens when someone clicks Merge: the client machine moves to
 * MERGING, PUT …/merge answers, and then the merging poll reads the widget until the
 * request is merged (merge-done), or reports a merge error or fails (merge-failed, and the
 * failed-to-merge panel). After a merge that was to delete the source branch, the
 * source-branch poll waits until the branch is gone.
 */
export function useMergeFlow(input: { projectId: number; iid: number; serverState: WidgetStateName | null; refetch: Refetch; onAlert: (alert: WidgetAlert | null) => void; onMerged: () => void }) {
  const { projectId, iid, serverState, refetch, onAlert, onMerged } = input;
  const [machine, setMachine] = useState<MachineState>(INITIAL_MACHINE_STATE);
  const [clientMergeError, setClientMergeError] = useState<string | null>(null);
  const [removingSourceBranch, setRemovingSourceBranch] = useState(false);
  const [deleteBranchError, setDeleteBranchError] = useState(false);
  const removeBranchRequested = useRef(false);
  const fire = useCallback((event: MachineEvent) => setMachine((state) => transition(state, event)), []);
  const { mutate: mergeNow, isPending: mergeRequestPending } = useMutation(mergeMutation(projectId, iid));

  // The server's merging and merged states move the machine too (GitLab's stateToTransitionMap).
  useEffect(() => {
    const event = transitionForServerState(serverState);
    if (event) fire(event);
  }, [serverState, fire]);

  const refetchRef = useRef(refetch);
  refetchRef.current = refetch;
  const onMergedRef = useRef(onMerged);
  onMergedRef.current = onMerged;

  // The merging poll: only once the merge call has answered, so an error left from an
  // earlier attempt is not read as this attempt's.
  const polling = machine === 'MERGING' && !mergeRequestPending;
  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    let timer: number | undefined;
    const tick = async () => {
      const result = await refetchRef.current();
      if (stopped) return;
      const data: MergeRequestWidgetData | null | undefined = result.data?.project.mergeRequest;
      if (result.isError || !data) {
        setClientMergeError('');
        fire('merge-failed');
      } else if (data.state === 'merged') {
        fire('merge-done');
        onMergedRef.current();
        if (removeBranchRequested.current && data.sourceBranchExists) setRemovingSourceBranch(true);
      } else if (data.mergeError && !data.mergeOngoing) {
        setClientMergeError(data.mergeError);
        fire('merge-failed');
      } else {
        timer = window.setTimeout(() => void tick(), MERGING_POLL_MS);
      }
    };
    timer = window.setTimeout(() => void tick(), 0);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [polling, fire]);

  // The source-branch poll: source_branch_exists true means keep polling.
  useEffect(() => {
    if (!removingSourceBranch) return;
    let stopped = false;
    let timer: number | undefined;
    const tick = async () => {
      const result = await refetchRef.current();
      if (stopped) return;
      if (result.isError) {
        setRemovingSourceBranch(false);
        setDeleteBranchError(true);
      } else if (result.data?.project.mergeRequest?.sourceBranchExists) {
        timer = window.setTimeout(() => void tick(), MERGING_POLL_MS);
      } else {
        setRemovingSourceBranch(false);
      }
    };
    timer = window.setTimeout(() => void tick(), MERGING_POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [removingSourceBranch]);

  const startMerge = useCallback(
    (payload: MergeRequestPayload) => {
      removeBranchRequested.current = payload.should_remove_source_branch;
      onAlert(null);
      fire('start-merge');
      mergeNow(payload, {
        onSuccess: () => fire('merging'),
        onError: (error) => {
          fire('merge-failed');
          // 422 is GitLab's "the merge itself failed": the failed-to-merge panel. Anything
          // else (a moved head, a refused request, no answer) is a request error: an alert.
          if (error instanceof ApiError && error.status === 422) setClientMergeError(error.message);
          else onAlert(mergeRequestErrorAlert(error instanceof Error ? error.message : undefined));
          void refetchRef.current();
        },
      });
    },
    [fire, mergeNow, onAlert],
  );

  /**
   * 'Set to auto-merge': the same merge call with the strategy. The machine goes to AUTO_MERGE
   * and back to IDLE when the call answers; the widget then shows the auto-merge panel.
   */
  const startAutoMerge = useCallback(
    (payload: MergeRequestPayload) => {
      onAlert(null);
      fire('start-auto-merge');
      mergeNow(payload, {
        onSuccess: () => {
          fire('merge-done');
          void refetchRef.current();
        },
        onError: (error) => {
          fire('merge-failed');
          onAlert(mergeRequestErrorAlert(error instanceof Error ? error.message : undefined));
          void refetchRef.current();
        },
      });
    },
    [fire, mergeNow, onAlert],
  );

  /** The failed-to-merge panel's refresh: forget the error, poll again, fetch now. */
  const refreshAfterFailure = useCallback(() => {
    setClientMergeError(null);
    void refetchRef.current();
  }, []);

  return {
    machine,
    clientMergeError,
    startMerge,
    startAutoMerge,
    mergeInFlight: mergeRequestPending || machine === 'MERGING',
    refreshAfterFailure,
    removingSourceBranch,
    deleteBranchError,
  };
}
