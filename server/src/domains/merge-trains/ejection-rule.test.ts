import { describe, expect, it } from 'vitest';
import { carOutcome, trainDecisions, type CarDecision, type CarOutcome } from './ejection-rule.js';

describe('trainDecisions: which car leaves the train', () => {
  const cases: Array<[string, CarOutcome[], CarDecision[]]> = [
    ['an empty train decides nothing', [], []],
    ['the front car passed: it merges', ['passed'], ['merge']],
    ['the front car failed: its own failure, ejected', ['failed'], ['eject']],
    ['the front car still running: everyone waits', ['running', 'passed', 'running'], ['wait', 'wait', 'wait']],
    ['the middle car failed with the front passed: only the middle leaves', ['passed', 'failed', 'running'], ['merge', 'eject', 'wait']],
    ['a failed car behind a running one is held, not ejected (GitLab would eject it)', ['running', 'failed'], ['wait', 'hold']],
    ['a failed car behind a failed one is held: the one ahead is judged first', ['failed', 'failed'], ['eject', 'hold']],
    ['two failures behind a running car: both held', ['running', 'failed', 'failed'], ['wait', 'hold', 'hold']],
    ['a failed car behind two passed ones is ejected: every car ahead passed', ['passed', 'passed', 'failed'], ['merge', 'wait', 'eject']],
    ['a passed car behind a failed one waits (it restarts when that one leaves)', ['failed', 'passed'], ['eject', 'wait']],
    ['a failed car behind passed, running: held until the running one ends', ['passed', 'running', 'failed'], ['merge', 'wait', 'hold']],
  ];
  it.each(cases)('%s', (_name, outcomes, expected) => {
    expect(trainDecisions(outcomes)).toEqual(expected);
  });
});

describe('carOutcome', () => {
  it.each([
    ['success', 'passed'],
    ['failed', 'failed'],
    ['canceled', 'failed'],
    ['skipped', 'failed'],
    ['running', 'running'],
    ['pending', 'running'],
    ['created', 'running'],
    ['manual', 'running'],
    [null, 'running'],
  ] as const)('%s is %s', (status, outcome) => {
    expect(carOutcome(status)).toBe(outcome);
  });
});
