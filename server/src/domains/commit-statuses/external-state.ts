/**
 * What a posted commit status state does to its job (GitLab's CreateCommitStatusService
 * `apply_job_state!`): the state machine events to apply in order. A `strict` event that the job's
 * status refuses is GitLab's 400 with the state machine's message; a lenient one (the `enqueue`
 * before `run`) is skipped when refused.
 */
import { transition, type JobEvent, type Status } from '../pipelines/engine/status.js';

export const COMMIT_STATUS_STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

export interface StateStep {
  event: JobEvent;
  strict: boolean;
}

export function stepsFor(state: CommitStatusState): StateStep[] {
  switch (state) {
    case 'pending':
      return [{ event: 'enqueue', strict: true }];
    case 'running':
      return [
        { event: 'enqueue', strict: false },
        { event: 'run', strict: true },
      ];
    case 'success':
      return [{ event: 'success', strict: true }];
    case 'failed':
      return [{ event: 'drop', strict: true }];
    case 'canceled':
      return [{ event: 'cancel', strict: true }];
    case 'skipped':
      return [{ event: 'skip', strict: true }];
  }
}

/** The message of Ruby's StateMachines::InvalidTransition, as GitLab answers it. */
export function invalidTransitionMessage(event: JobEvent, from: Status): string {
  return `Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`;
}

/**
 * The statuses the steps would pass through from `from`, or the first refused strict step.
 * Pure: the service applies the same steps by compare-and-swap.
 */
export function planState(from: Status, state: CommitStatusState): { ok: true; path: { event: JobEvent; to: Status }[] } | { ok: false; message: string } {
  const path: { event: JobEvent; to: Status }[] = [];
  let status = from;
  for (const step of stepsFor(state)) {
    const to = transition(status, step.event);
    if (to === null) {
      if (step.strict) return { ok: false, message: invalidTransitionMessage(step.event, status) };
      continue;
    }
    path.push({ event: step.event, to });
    status = to;
  }
  return { ok: true, path };
}
