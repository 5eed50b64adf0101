import type { WidgetStateName } from './widget-state';

/**
 * The client's merge state machine (GitLab's STATE_MACHINE in
 * vue_merge_request_widget/constants.js). It covers the moments the server cannot
 * report yet: between a click on Merge and the merge showing up in the widget data.
 *
 *   IDLE       --start-merge | merging-->  MERGING
 *   IDLE       --start-auto-merge------->  AUTO_MERGE
 *   MERGING    --merge-done------------->  MERGED
 *   MERGING    --merge-failed----------->  IDLE
 *   AUTO_MERGE --merge-done | merge-failed--> IDLE
 *
 * Any other event leaves the state unchanged.
 */
export type MachineState = 'IDLE' | 'MERGING' | 'MERGED' | 'AUTO_MERGE';
export type MachineEvent = 'start-merge' | 'start-auto-merge' | 'merge-failed' | 'merge-done' | 'merging';

const TRANSITIONS: Record<MachineState, Partial<Record<MachineEvent, MachineState>>> = {
  IDLE: { 'start-merge': 'MERGING', 'start-auto-merge': 'AUTO_MERGE', merging: 'MERGING' },
  MERGING: { 'merge-done': 'MERGED', 'merge-failed': 'IDLE' },
  MERGED: {},
  AUTO_MERGE: { 'merge-done': 'IDLE', 'merge-failed': 'IDLE' },
};

export const INITIAL_MACHINE_STATE: MachineState = 'IDLE';

export function transition(state: MachineState, event: MachineEvent): MachineState {
  return TRANSITIONS[state][event] ?? state;
}

/**
 * Server states map to transitions (GitLab's stateToTransitionMap): the widget data saying
 * merging, merged or auto-merge-enabled moves the machine as a click would.
 */
export function transitionForServerState(state: WidgetStateName | null): MachineEvent | null {
  if (state === 'merging') return 'start-merge';
  if (state === 'merged') return 'merge-done';
  return null;
}

/** The panel to show: the machine's while it is not idle (GitLab's stateToComponentMap), else the derived state. */
export function displayedState(machine: MachineState, derived: WidgetStateName | null): WidgetStateName | null {
  if (machine === 'MERGING') return 'merging';
  if (machine === 'MERGED') return 'merged';
  return derived;
}
