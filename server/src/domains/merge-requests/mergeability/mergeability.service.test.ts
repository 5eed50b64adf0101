import { describe, expect, it } from 'vitest';
import type { MergeRequest } from '../merge-request.js';
import { isCurrent, trialMergeMessage } from './mergeability.service.js';

const [T, H, S, M] = ['t', 'h', 's', 'm'].map((c) => c.repeat(40)) as [string, string, string, string];

/** A request whose stored trial merge merged H into T, seen with source tip S and merge ref M. */
function stored(overrides: Partial<MergeRequest> = {}): MergeRequest {
  return {
    merge_status: 'can_be_merged',
    merge_checked_at: new Date(),
    head_commit_sha: H,
    merge_check_head_sha: H,
    merge_check_source_sha: S,
    merge_check_target_sha: T,
    merge_ref_sha: M,
    ...overrides,
  } as MergeRequest;
}
const tips = { source: S, target: T, mergeRef: M };

describe('isCurrent: when the stored trial merge still answers', () => {
  it.each([
    ['same tips, same version, the ref in place', stored(), tips, true],
    ['a conflict needs no ref', stored({ merge_status: 'cannot_be_merged', merge_ref_sha: null }), { ...tips, mergeRef: null }, true],
    ['the target moved', stored(), { ...tips, target: 'x'.repeat(40) }, false],
    ['the source moved (a version is coming)', stored(), { ...tips, source: 'x'.repeat(40) }, false],
    ['the source branch was deleted', stored(), { ...tips, source: null }, false],
    ['a new version was recorded', stored({ head_commit_sha: 'x'.repeat(40) }), tips, false],
    ['someone removed the merge ref', stored(), { ...tips, mergeRef: null }, false],
    ['a push marked it checking', stored({ merge_status: 'checking' }), tips, false],
    ['never checked', stored({ merge_checked_at: null }), tips, false],
  ] as const)('%s → %s', (_name, mergeRequest, observed, expected) => {
    expect(isCurrent(mergeRequest, observed)).toBe(expected);
  });
});

describe('trialMergeMessage', () => {
  it('is GitLab’s default merge commit message', () => {
    expect(trialMergeMessage({ source_branch: 'feature', target_branch: 'main', title: 'Add it', description: 'Body', target_full_path: 'g/p', iid: 3, source_project_id: 1 })).toBe(
      "Merge branch 'feature' into 'main'\n\nAdd it\n\nSee merge request g/p!3\n",
    );
  });
});
