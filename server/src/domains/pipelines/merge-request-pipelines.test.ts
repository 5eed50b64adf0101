import { describe, expect, it } from 'vitest';
import { detachedPipelineTarget, mergeRequestRefPath } from './merge-request-pipelines.service.js';

describe('detachedPipelineTarget (GitLab’s detached_pipeline_project_and_ref)', () => {
  it('runs in the target project on refs/merge-requests/:iid/head when the user may run it there', () => {
    expect(detachedPipelineTarget({ inTargetProject: true, iid: 7, sourceBranch: 'feature' })).toEqual({ project: 'target', ref: 'refs/merge-requests/7/head' });
  });
  it('runs in the source project on the source branch otherwise (a fork’s author)', () => {
    expect(detachedPipelineTarget({ inTargetProject: false, iid: 7, sourceBranch: 'feature' })).toEqual({ project: 'source', ref: 'feature' });
  });
  it('names the merged results ref', () => {
    expect(mergeRequestRefPath(7, 'merge')).toBe('refs/merge-requests/7/merge');
  });
});
