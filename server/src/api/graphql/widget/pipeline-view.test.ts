import { describe, expect, it } from 'vitest';
import { ciStatus, mergeRequestEventType, pipelineEventTypeName, pipelineWarnings } from './pipeline-view.js';

describe('pipeline-view', () => {
  it.each([
    ['a branch pipeline', { source: 'push', merge_request_id: null, ref: 'main' }, null, 'Pipeline'],
    ['a detached merge request pipeline', { source: 'merge_request_event', merge_request_id: 4, ref: 'refs/merge-requests/2/head' }, 'detached', 'Merge request pipeline'],
    ['a fork’s pipeline on its branch', { source: 'merge_request_event', merge_request_id: 4, ref: 'feature' }, 'detached', 'Merge request pipeline'],
    ['a merged results pipeline', { source: 'merge_request_event', merge_request_id: 4, ref: 'refs/merge-requests/2/merge' }, 'merged_result', 'Merged results pipeline'],
    ['a merge train pipeline', { source: 'merge_request_event', merge_request_id: 4, ref: 'refs/merge-requests/2/train' }, 'merge_train', 'Merge train pipeline'],
  ] as const)('%s → %s, %s', (_name, pipeline, eventType, title) => {
    expect(mergeRequestEventType(pipeline)).toBe(eventType);
    expect(pipelineEventTypeName(pipeline)).toBe(title);
  });

  it('reads a success with allowed failures as success-with-warnings (GitLab’s ci_status)', () => {
    expect(ciStatus({ pipeline: { status: 'success' } as never, warnings: true })).toBe('success-with-warnings');
    expect(ciStatus({ pipeline: { status: 'success' } as never, warnings: false })).toBe('success');
    expect(ciStatus({ pipeline: { status: 'failed' } as never, warnings: true })).toBe('failed');
  });

  it.each([
    [{ mergePipelinesEnabled: true, retargeted: true, fromFork: false }, 'You should run a new pipeline, because the target branch has changed for this merge request.', false],
    [{ mergePipelinesEnabled: false, retargeted: true, fromFork: true }, null, false],
    [{ mergePipelinesEnabled: true, retargeted: false, fromFork: true }, null, true],
  ] as const)('warnings for %o', (input, retargeted, fork) => {
    expect(pipelineWarnings(input)).toEqual({ retargeted, forkMergePipelines: fork });
  });
});
