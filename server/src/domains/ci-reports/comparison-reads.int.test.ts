/**
 * A merge request's test comparison reads only the failed and errored cases of its two pipelines
 * (and the head's passing cases that fixed one), counting the rest in the database. These tests
 * hold it to the answer of reading every case of both reports, on two large reports with new,
 * existing and fixed failures and errors, duplicate case names, a suite only one side has, and a
 * retried job whose cases no longer count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../../test-support/database.js';
import { createCiReportsRepository, type CiReportsRepository } from './ci-reports.repository.js';
import { createCiReports } from './ci-reports.service.js';
import type { ParsedTestCase, TestCaseStatus } from './junit-parser.js';
import { compareTestReports } from './test-reports.js';

const CASES_PER_JOB = 1_500;
const HEAD_SHA = 'a'.repeat(40);
const BASE_SHA = 'b'.repeat(40);

/** A deterministic status per case: mostly passing, some failed, errored and skipped, differing between the sides. */
function statusOf(seed: number, i: number): TestCaseStatus {
  const roll = (i * 7919 + seed * 104_729) % 100;
  if (roll < 9) return 'failed';
  if (roll < 13) return 'error';
  if (roll < 16) return 'skipped';
  return 'success';
}

describe(`the merge request's test comparison reads only failures (${testDatabaseKind()})`, () => {
  let db: TestDatabase;
  let repo: CiReportsRepository;
  let projectId: number;
  let headId: number;
  let baseId: number;

  async function pipeline(ref: string, sha: string, jobs: { name: string; suite: string | null; retried?: boolean; seed: number }[]): Promise<number> {
    const { rows } = await db.query<{ id: number }>('INSERT INTO ci_pipelines (project_id, iid, sha, ref, source) VALUES ($1, (SELECT count(*) + 1 FROM ci_pipelines), $2, $3, $4) RETURNING id', [projectId, sha, ref, 'push']);
    const pipelineId = Number(rows[0]!.id);
    const stage = await db.query<{ id: number }>('INSERT INTO ci_stages (pipeline_id, project_id, name, position) VALUES ($1, $2, $3, 0) RETURNING id', [pipelineId, projectId, 'test']);
    for (const job of jobs) {
      const build = await db.query<{ id: number }>(
        `INSERT INTO ci_builds (type, stage_idx, stage, name, project_id, pipeline_id, stage_id, retried) VALUES ('build', 0, 'test', $1, $2, $3, $4, $5) RETURNING id`,
        [job.name, projectId, pipelineId, Number(stage.rows[0]!.id), job.retried ?? false],
      );
      if (job.suite === null) continue;
      const jobId = Number(build.rows[0]!.id);
      const cases: ParsedTestCase[] = Array.from({ length: CASES_PER_JOB }, (_, i) => ({
        suiteName: null,
        // names repeat (a case run twice in a suite, or in two classes): GitLab's key is suite, class and name
        name: `case ${i % 300}`,
        classname: `spec.module_${i % 5}`,
        file: i % 3 === 0 ? `spec/module_${i % 5}_spec.rb` : null,
        status: statusOf(job.seed, i),
        executionTime: (i % 50) / 100,
        systemOutput: statusOf(job.seed, i) === 'failed' || statusOf(job.seed, i) === 'error' ? `Failure ${i}` : null,
        attachment: null,
      }));
      await db.transaction((tx) => repo.replaceTestReport({ id: jobId, pipeline_id: pipelineId }, job.suite!, null, cases, tx));
    }
    return pipelineId;
  }

  /** The comparison as it was computed before: every case of both pipelines read and matched. */
  async function fullRead(head: number, base: number | null) {
    const suites = await repo.suiteCounts(head);
    return compareTestReports(base === null ? [] : await repo.testCases(base), await repo.testCases(head), suites.map((suite) => suite.suite_name));
  }

  beforeAll(async () => {
    db = await openTestDatabase();
    repo = createCiReportsRepository(db);
    const namespace = await db.query<{ id: number }>(`INSERT INTO namespaces (kind, name, path) VALUES ('group', 'g', 'g') RETURNING id`);
    const project = await db.query<{ id: number }>('INSERT INTO projects (namespace_id, name, path) VALUES ($1, $2, $2) RETURNING id', [Number(namespace.rows[0]!.id), 'p']);
    projectId = Number(project.rows[0]!.id);
    baseId = await pipeline('main', BASE_SHA, [
      { name: 'rspec', suite: 'rspec', seed: 1 },
      { name: 'jest', suite: 'jest', seed: 2 },
      { name: 'gone', suite: 'gone', seed: 3 },
    ]);
    headId = await pipeline('feature', HEAD_SHA, [
      { name: 'rspec', suite: 'rspec', seed: 4, retried: true },
      { name: 'rspec', suite: 'rspec', seed: 5 },
      { name: 'jest', suite: 'jest', seed: 2 },
      { name: 'new', suite: 'new', seed: 6 },
      { name: 'build', suite: null, seed: 0 },
    ]);
  }, 120_000);
  afterAll(() => db?.close());

  const refs = (baseSha: string | null) => ({ sourceProjectId: projectId, sourceBranch: 'feature', headSha: HEAD_SHA, targetProjectId: projectId, targetBranch: 'main', baseSha });
  const service = () => createCiReports({ reports: repo } as unknown as Parameters<typeof createCiReports>[0]);

  it('answers exactly what reading every case answered', async () => {
    const expected = await fullRead(headId, baseId);
    // the case set has every kind of change, duplicates included, and lists long enough to be cut
    const lists = ['new_failures', 'existing_failures', 'resolved_failures', 'new_errors', 'existing_errors', 'resolved_errors'] as const;
    for (const list of lists) expect(expected.suites.some((suite) => suite[list].length > 0), list).toBe(true);
    expect(expected.suites.map((suite) => suite.name)).toEqual(['rspec', 'jest', 'new']);
    expect(expected.summary.total).toBe(3 * CASES_PER_JOB);
    const rspec = expected.suites[0]!;
    expect(rspec.summary.failed).toBeGreaterThan(100);
    expect(new Set(rspec.new_failures.map((c) => `${c.classname} ${c.name}`)).size).toBeLessThan(rspec.new_failures.length);

    const compared = await service().compareForMergeRequest(refs(BASE_SHA));
    expect(compared).toEqual({ parsed: true, comparison: expected });
  });

  it('reads only the failures and the cases that fixed one', async () => {
    const { head, base } = await repo.comparisonCases(headId, baseId);
    expect(base.every((c) => c.status === 'failed' || c.status === 'error')).toBe(true);
    expect(head.some((c) => c.status === 'success')).toBe(true);
    expect(head.every((c) => c.status !== 'skipped')).toBe(true);
    expect(head.length + base.length).toBeLessThan(CASES_PER_JOB * 6 * 0.25);
  });

  it('without a base pipeline every failure is new, as before', async () => {
    const expected = await fullRead(headId, null);
    expect(await service().compareForMergeRequest(refs(null))).toEqual({ parsed: true, comparison: expected });
    expect(await service().compareForMergeRequest(refs('c'.repeat(40)))).toEqual({ parsed: true, comparison: expected });
  });
});
