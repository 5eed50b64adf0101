import { describe, expect, it } from 'vitest';
import { assess } from '../fold.js';
import { ciMustPassCheck, ciStillRunningCheck } from './ci-status.js';
import { mergeableFacts } from './test-facts.js';
import type { MergeabilityFacts } from '../facts.js';

type Row = [string, Partial<MergeabilityFacts>, string, string, string];

describe('CI_MUST_PASS and CI_STILL_RUNNING', () => {
  const required = { pipelineMustSucceed: true };
  it.each<Row>([
    ['not required, no pipeline', { headPipelineStatus: null }, 'INACTIVE', 'INACTIVE', 'MERGEABLE'],
    ['not required, a failed pipeline', { headPipelineStatus: 'failed' }, 'INACTIVE', 'INACTIVE', 'MERGEABLE'],
    ['not required, a running pipeline', { headPipelineStatus: 'running' }, 'INACTIVE', 'INACTIVE', 'MERGEABLE'],
    ['required, succeeded', { ...required, headPipelineStatus: 'success' }, 'SUCCESS', 'SUCCESS', 'MERGEABLE'],
    ['required, no pipeline', { ...required, headPipelineStatus: null }, 'FAILED', 'SUCCESS', 'CI_MUST_PASS'],
    ['required, failed', { ...required, headPipelineStatus: 'failed' }, 'FAILED', 'SUCCESS', 'CI_MUST_PASS'],
    ['required, canceled', { ...required, headPipelineStatus: 'canceled' }, 'FAILED', 'SUCCESS', 'CI_MUST_PASS'],
    ['required, running', { ...required, headPipelineStatus: 'running' }, 'CHECKING', 'FAILED', 'CI_STILL_RUNNING'],
    ['required, pending', { ...required, headPipelineStatus: 'pending' }, 'CHECKING', 'FAILED', 'CI_STILL_RUNNING'],
    ['required, created', { ...required, headPipelineStatus: 'created' }, 'FAILED', 'FAILED', 'CI_STILL_RUNNING'],
    ['required, blocked on a manual job', { ...required, headPipelineStatus: 'manual' }, 'FAILED', 'FAILED', 'CI_STILL_RUNNING'],
    ['required, skipped', { ...required, headPipelineStatus: 'skipped' }, 'FAILED', 'SUCCESS', 'CI_MUST_PASS'],
    ['required, skipped counts as success', { ...required, skippedPipelineSucceeds: true, headPipelineStatus: 'skipped' }, 'SUCCESS', 'SUCCESS', 'MERGEABLE'],
    ['skipped counts, but a failure does not', { ...required, skippedPipelineSucceeds: true, headPipelineStatus: 'failed' }, 'FAILED', 'SUCCESS', 'CI_MUST_PASS'],
  ])('%s → %s, %s, %s', (_name, overrides, mustPass, stillRunning, detailed) => {
    const facts = mergeableFacts(overrides);
    expect(ciMustPassCheck.run(facts)).toBe(mustPass);
    expect(ciStillRunningCheck.run(facts)).toBe(stillRunning);
    expect(assess(facts).detailedMergeStatus).toBe(detailed);
  });

  it('lets every other failing check name the status first (the pipeline decides last, as in GitLab)', () => {
    expect(assess(mergeableFacts({ pipelineMustSucceed: true, headPipelineStatus: 'failed', draft: true })).detailedMergeStatus).toBe('DRAFT_STATUS');
    expect(assess(mergeableFacts({ pipelineMustSucceed: true, headPipelineStatus: 'running', discussionsMustBeResolved: true, unresolvedDiscussions: 1 })).detailedMergeStatus).toBe(
      'DISCUSSIONS_NOT_RESOLVED',
    );
  });
});
