import { describe, expect, it } from 'vitest';
import { displayedState, INITIAL_MACHINE_STATE, transition, transitionForServerState, type MachineEvent, type MachineState } from './merge-machine';

const EVENTS: MachineEvent[] = ['start-merge', 'start-auto-merge', 'merge-failed', 'merge-done', 'merging'];

/** Exactly the transitions of GitLab's merge state machine; every other (state, event) pair stays put. */
const ALLOWED: [MachineState, MachineEvent, MachineState][] = [
  ['IDLE', 'start-merge', 'MERGING'],
  ['IDLE', 'merging', 'MERGING'],
  ['IDLE', 'start-auto-merge', 'AUTO_MERGE'],
  ['MERGING', 'merge-done', 'MERGED'],
  ['MERGING', 'merge-failed', 'IDLE'],
  ['AUTO_MERGE', 'merge-done', 'IDLE'],
  ['AUTO_MERGE', 'merge-failed', 'IDLE'],
];

describe('merge state machine', () => {
  it('starts idle', () => {
    expect(INITIAL_MACHINE_STATE).toBe('IDLE');
  });

  it.each(ALLOWED)('%s --%s--> %s', (from, event, to) => {
    expect(transition(from, event)).toBe(to);
  });

  const ignored = (['IDLE', 'MERGING', 'MERGED', 'AUTO_MERGE'] as MachineState[]).flatMap((state) =>
    EVENTS.filter((event) => !ALLOWED.some(([from, on]) => from === state && on === event)).map((event) => [state, event] as const),
  );
  it.each(ignored)('%s ignores %s', (state, event) => {
    expect(transition(state, event)).toBe(state);
  });

  it('walks a click on Merge to the merged panel, and a failure back to idle', () => {
    let state = transition(INITIAL_MACHINE_STATE, 'start-merge');
    expect(displayedState(state, 'readyToMerge')).toBe('merging');
    state = transition(state, 'merge-done');
    expect(displayedState(state, 'readyToMerge')).toBe('merged');
    expect(displayedState(transition(transition('IDLE', 'start-merge'), 'merge-failed'), 'failedToMerge')).toBe('failedToMerge');
  });
});

describe('server states map to transitions', () => {
  it.each([
    ['merging', 'start-merge'],
    ['merged', 'merge-done'],
    ['readyToMerge', null],
    ['closed', null],
    [null, null],
  ] as const)('%s → %s', (state, event) => {
    expect(transitionForServerState(state)).toBe(event);
  });

  it('an idle machine shows the derived state', () => {
    expect(displayedState('IDLE', 'checking')).toBe('checking');
    expect(displayedState('AUTO_MERGE', null)).toBe(null);
  });
});
