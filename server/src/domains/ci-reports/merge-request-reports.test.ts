import { describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import type { CiReportsRepository } from './ci-reports.repository.js';
import { createCiReports } from './ci-reports.service.js';
import { createMergeRequestReports, NO_TEST_REPORTS } from './merge-request-reports.service.js';

const REFS = { sourceProjectId: 1, sourceBranch: 'feature', headSha: 'a'.repeat(40), targetProjectId: 1, targetBranch: 'main', baseSha: 'b'.repeat(40) };

/** The comparison's state from what the head pipeline has: no pipeline, reports still being parsed, none, parsed. */
function comparer(state: { head: boolean; unparsed: boolean; parsed: boolean }) {
  const reports = {
    pipelineAt: async (_project: number, ref: string) => (ref === 'feature' ? (state.head ? { id: 10 } : null) : null),
    hasUnparsedTestReports: async () => state.unparsed,
    hasTestReports: async () => state.parsed,
    suiteCounts: async () => [],
    comparisonCases: async () => ({ head: [], base: [] }),
  } as unknown as CiReportsRepository;
  return createCiReports({ reports } as unknown as Parameters<typeof createCiReports>[0]);
}

describe('compareForMergeRequest', () => {
  it.each([
    ['no head pipeline', { head: false, unparsed: false, parsed: false }, { parsed: false, parsing: false }],
    ['a JUnit artifact not ingested yet', { head: true, unparsed: true, parsed: true }, { parsed: false, parsing: true }],
    ['no test report at all', { head: true, unparsed: false, parsed: false }, { parsed: false, parsing: false }],
  ])('%s', async (_name, state, expected) => {
    expect(await comparer(state).compareForMergeRequest(REFS)).toEqual(expected);
  });

  it('compares once every report is parsed', async () => {
    const result = await comparer({ head: true, unparsed: false, parsed: true }).compareForMergeRequest(REFS);
    expect(result.parsed).toBe(true);
  });
});

describe('MergeRequestReports.testReports', () => {
  const service = (result: Awaited<ReturnType<ReturnType<typeof createCiReports>['compareForMergeRequest']>>) =>
    createMergeRequestReports({
      mergeRequests: { open: async () => ({ project: { id: 1 }, mergeRequest: { id: 5, source_project_id: 1, source_branch: 'feature', target_project_id: 1, target_branch: 'main' }, abilities: new Set(['read_pipeline']) }) } as never,
      diffs: { latest: async () => ({ id: 7, head_commit_sha: REFS.headSha, base_commit_sha: REFS.baseSha, start_commit_sha: REFS.baseSha }), files: async () => [] } as never,
      reports: { compareForMergeRequest: async () => result, coverageForMergeRequest: async () => ({ parsed: false as const }) } as never,
    });
  const actor = {} as Actor;

  it('says the comparison is being computed while a report is parsed (the route’s 204)', async () => {
    expect(await service({ parsed: false, parsing: true }).testReports(actor, 'g/p', 1)).toEqual({ status: 'parsing' });
  });

  it('gives GitLab’s status_reason without reports (the route’s 400)', async () => {
    expect(await service({ parsed: false, parsing: false }).testReports(actor, 'g/p', 1)).toEqual({ status: 'error', statusReason: NO_TEST_REPORTS });
  });
});
