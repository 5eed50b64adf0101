import { describe, expect, it } from 'vitest';
import { abortReason, followsPush, isAutoMergeSet, mergeDecision, shownAutoMergeStrategy, type AbortFacts, type MergeFacts } from './rules.js';

const SHA = 'a'.repeat(40);
const base: AbortFacts = { state: 'opened', targetBranch: 'main', setTargetBranch: 'main', headSha: SHA, setSha: SHA, setterCanMerge: true, pipelineStatus: 'running' };

describe('abortReason: every cancel rule', () => {
  it.each<[string, Partial<AbortFacts>, string | null]>([
    ['nothing changed: keeps waiting', {}, null],
    ['closed', { state: 'closed' }, 'merge request was closed'],
    ['merged: nothing to abort', { state: 'merged', headSha: 'b'.repeat(40) }, null],
    ['retargeted', { targetBranch: 'release' }, 'target branch was changed'],
    ['pushed by someone else (the head moved past the sha it was set for)', { headSha: 'b'.repeat(40) }, 'source branch was updated'],
    ['the setter lost merge rights', { setterCanMerge: false }, 'the merge user can no longer merge'],
    ['the pipeline failed', { pipelineStatus: 'failed' }, 'the pipeline failed'],
    ['the pipeline was canceled', { pipelineStatus: 'canceled' }, 'the pipeline was canceled'],
    ['the pipeline succeeded', { pipelineStatus: 'success' }, null],
    ['no pipeline', { pipelineStatus: null }, null],
    ['closed wins over a failed pipeline', { state: 'closed', pipelineStatus: 'failed' }, 'merge request was closed'],
    ['a push wins over the failed pipeline of the old head', { headSha: 'c'.repeat(40), pipelineStatus: 'failed' }, 'source branch was updated'],
    ['start merge train: a failed head pipeline does not stop it (the car runs its own)', { pipelineStatus: 'failed', startsTrainNow: true }, null],
    ['start merge train: a canceled head pipeline does not stop it', { pipelineStatus: 'canceled', startsTrainNow: true }, null],
    ['start merge train: a push by someone else still does', { headSha: 'c'.repeat(40), startsTrainNow: true }, 'source branch was updated'],
  ])('%s', (_name, facts, expected) => {
    expect(abortReason({ ...base, ...facts })).toBe(expected);
  });
});

describe('mergeDecision', () => {
  const ready: MergeFacts = { detailedMergeStatus: 'MERGEABLE', hasCi: true, pipelineStatus: 'success', skippedPipelineSucceeds: false };
  it.each<[string, Partial<MergeFacts>, 'merge' | 'wait']>([
    ['every check passes and the pipeline succeeded', {}, 'merge'],
    ['no CI at all, every check passes', { hasCi: false, pipelineStatus: null }, 'merge'],
    ["CI, but the new head's pipeline is not created yet", { pipelineStatus: null }, 'wait'],
    ['pipeline running (even when the project does not require it)', { pipelineStatus: 'running' }, 'wait'],
    ['pipeline skipped, skipped does not count', { pipelineStatus: 'skipped' }, 'wait'],
    ['pipeline skipped, skipped counts', { pipelineStatus: 'skipped', skippedPipelineSucceeds: true }, 'merge'],
    ['waiting for approval', { detailedMergeStatus: 'NOT_APPROVED' }, 'wait'],
    ['unresolved threads', { detailedMergeStatus: 'DISCUSSIONS_NOT_RESOLVED' }, 'wait'],
    ['draft', { detailedMergeStatus: 'DRAFT_STATUS' }, 'wait'],
    ['blocked by another request', { detailedMergeStatus: 'BLOCKED_STATUS' }, 'wait'],
    ['still checking after a push', { detailedMergeStatus: 'CHECKING' }, 'wait'],
    ['start merge train over a failed pipeline: the checks pass, the car is added', { pipelineStatus: 'failed', startsTrainNow: true }, 'merge'],
    ['start merge train while a check fails: waits', { pipelineStatus: 'failed', detailedMergeStatus: 'NOT_APPROVED', startsTrainNow: true }, 'wait'],
  ])('%s', (_name, facts, expected) => {
    expect(mergeDecision({ ...ready, ...facts })).toBe(expected);
  });
});

describe('followsPush', () => {
  it.each<[number | null | undefined, boolean]>([
    [7, true],
    [8, false],
    [null, false],
    [undefined, false],
  ])('pusher %s (setter 7) → %s', (pusher, expected) => {
    expect(followsPush(pusher, 7)).toBe(expected);
  });
});

describe('what a request shows of its auto-merge (one rule for REST, GraphQL and the widget)', () => {
  it.each<[string, { strategy: 'merge_when_checks_pass' | 'add_to_merge_train_when_checks_pass' | 'merge_train' } | null, boolean, string | null]>([
    ['nothing set, not on a train', null, false, null],
    ['merge when checks pass', { strategy: 'merge_when_checks_pass' }, false, 'merge_when_checks_pass'],
    ['waiting to be added to the train', { strategy: 'add_to_merge_train_when_checks_pass' }, false, 'add_to_merge_train_when_checks_pass'],
    ['a car added through the API (no setting): merge_train, as GitLab', null, true, 'merge_train'],
    ['a car whose setting has not been handed over yet: merge_train', { strategy: 'add_to_merge_train_when_checks_pass' }, true, 'merge_train'],
  ])('%s', (_name, setting, onTrain, expected) => {
    expect(shownAutoMergeStrategy(setting, onTrain)).toBe(expected);
  });

  it.each<[string, 'opened' | 'merged' | 'closed', number | null, boolean]>([
    ['open with a merge user (set, or a car)', 'opened', 7, true],
    ['open without one', 'opened', null, false],
    ['merged: the merge user is who merged it', 'merged', 7, false],
    ['closed', 'closed', 7, false],
  ])('isAutoMergeSet: %s', (_name, state, mergeUserId, expected) => {
    expect(isAutoMergeSet({ state, merge_user_id: mergeUserId })).toBe(expected);
  });
});
