/**
 * GitLab's job and pipeline statuses (Ci::HasStatus) and the job state machine
 * (CommitStatus, Ci::Processable, Ci::Build) as a pure transition table: an event applied to a
 * status answers the next status, or null when GitLab's state machine refuses the event.
 */
import { CI_STATUSES, type CiStatus } from '@tributary/contracts';

/** GitLab's statuses: one list, shared with the web app. */
export const STATUSES = CI_STATUSES;
export type Status = CiStatus;

export const ACTIVE_STATUSES: readonly Status[] = ['waiting_for_resource', 'preparing', 'pending', 'running'];
export const COMPLETED_STATUSES: readonly Status[] = ['success', 'failed', 'canceled', 'skipped'];
export const BLOCKED_STATUSES: readonly Status[] = ['manual', 'scheduled'];
export const STARTED_STATUSES: readonly Status[] = ['running', 'success', 'failed'];
/** What a pipeline cancel stops: alive jobs and scheduled ones (manual jobs stay). */
export const CANCELABLE_STATUSES: readonly Status[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled'];

export function isStatus(value: string): value is Status {
  return (STATUSES as readonly string[]).includes(value);
}

export const isCompleted = (status: Status) => COMPLETED_STATUSES.includes(status);
export const isActive = (status: Status) => ACTIVE_STATUSES.includes(status);

export type JobEvent =
  /** skipped or manual back to created, to be processed again (a retry or a played manual job upstream) */
  | 'process'
  /** ready to run: a runner may pick it */
  | 'enqueue'
  /** ready to run, but its `resource_group` must be free first (GitLab's enqueue with requires_resource?) */
  | 'wait_for_resource'
  /** the resource it waited for was assigned to it */
  | 'enqueue_waiting_for_resource'
  /** `when: manual`: waits for someone to play it */
  | 'actionize'
  /** `when: delayed`: waits for its time */
  | 'schedule'
  | 'unschedule'
  /** a delayed job's time came */
  | 'enqueue_scheduled'
  /** a runner picked it */
  | 'run'
  | 'success'
  /** failed (with a failure_reason) */
  | 'drop'
  | 'skip'
  | 'cancel'
  /** a running job is told to stop; its runner finishes the cancel */
  | 'start_cancel'
  | 'finish_cancel';

const TRANSITIONS: Record<JobEvent, { from: readonly Status[]; to: Status }> = {
  process: { from: ['skipped', 'manual'], to: 'created' },
  enqueue: { from: ['created', 'skipped', 'manual', 'scheduled'], to: 'pending' },
  wait_for_resource: { from: ['created', 'skipped', 'manual', 'scheduled'], to: 'waiting_for_resource' },
  enqueue_waiting_for_resource: { from: ['waiting_for_resource'], to: 'pending' },
  actionize: { from: ['created'], to: 'manual' },
  schedule: { from: ['created'], to: 'scheduled' },
  unschedule: { from: ['scheduled'], to: 'manual' },
  enqueue_scheduled: { from: ['scheduled'], to: 'pending' },
  run: { from: ['pending'], to: 'running' },
  success: { from: ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'], to: 'success' },
  drop: { from: ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled'], to: 'failed' },
  skip: { from: ['created', 'waiting_for_resource', 'preparing', 'pending'], to: 'skipped' },
  cancel: { from: ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'manual', 'scheduled'], to: 'canceled' },
  start_cancel: { from: ['running'], to: 'canceling' },
  finish_cancel: { from: ['canceling'], to: 'canceled' },
};

/** The status `event` leads to from `status`, or null when the event is not allowed there. */
export function transition(status: Status, event: JobEvent): Status | null {
  const rule = TRANSITIONS[event];
  return rule.from.includes(status) ? rule.to : null;
}

/** The statuses `event` may leave (for the compare-and-swap that applies it). */
export function sourcesOf(event: JobEvent): readonly Status[] {
  return TRANSITIONS[event].from;
}
