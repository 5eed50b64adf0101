import pg from 'pg';
import type { Cleanup } from '../lib/cleanup.js';
import { benchDatabase } from '../lib/postgres.js';
import { formatMs, formatRatio, formatSamples, median, timed } from '../lib/stats.js';
import type { Row } from '../lib/table.js';
import { rawSqlSamples, samplesOf, timedGet } from '../lib/timing.js';
import { api, createRootToken, startTributary } from '../lib/tributary.js';
import { ROOT_PASSWORD, verdict, type BenchResult } from './common.js';

/** A pipeline's JUnit report of 5,000 cases in 5 suites (jobs), 2% failed, 1% errored, 3% skipped. */
const CASES = 5_000;
const SUITES = 5;
/** The test summary (GET …/test_report_summary) answers within this. */
const SUMMARY_TARGET_MS = 100;
const SAMPLES = 9;

/**
 * Seeds the parsed report straight into the database, as the ingest job writes it after a junit
 * artifact (the benchmark measures reading it; parsing has its own tests). ANALYZE after.
 */
export async function seedReport(url: string, pipelineId: number, jobIds: number[], failedPercent = 2): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [index, jobId] of jobIds.entries()) {
      await client.query('INSERT INTO ci_test_report_jobs (job_id, pipeline_id, suite_name) VALUES ($1, $2, $3)', [jobId, pipelineId, `suite-${index}`]);
    }
    await client.query(
      `INSERT INTO ci_test_cases (pipeline_id, job_id, suite_name, status, name, classname, file, execution_time, system_output)
       SELECT $1, ($2::bigint[])[1 + i % $3], 'suite-' || (i % $3), s.status, 'case ' || i || ' does something', 'spec.module_' || (i % 50), 'spec/module_' || (i % 50) || '_spec.rb',
              (i % 100) / 1000.0, CASE WHEN s.status IN ('failed', 'error') THEN 'Failure/Error: ' || repeat('trace line ', 30) END
         FROM generate_series(0, $4 - 1) AS i,
              LATERAL (SELECT CASE WHEN i % 100 < $5 THEN 'failed' WHEN i % 100 = 2 THEN 'error' WHEN i % 100 < 6 AND i % 100 > 2 THEN 'skipped' ELSE 'success' END AS status) s`,
      [pipelineId, jobIds, jobIds.length, CASES, failedPercent],
    );
    await client.query('ANALYZE ci_test_cases');
    await client.query('ANALYZE ci_test_report_jobs');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The same rows' counts by suite and status, straight through node-postgres. */
async function rawSqlSummary(url: string, pipelineId: number): Promise<number[]> {
  return rawSqlSamples(url, SAMPLES, (client) =>
    client.query(
      `SELECT suite_name, status, count(*), sum(execution_time) FROM ci_test_cases WHERE pipeline_id = $1 GROUP BY suite_name, status`,
      [pipelineId],
    ),
  );
}

/** The comparison's rows straight through node-postgres: both pipelines' cases that did not pass or skip. */
async function rawSqlComparison(url: string, headId: number, baseId: number): Promise<number[]> {
  return rawSqlSamples(url, SAMPLES, (client) =>
    client.query(
      `SELECT pipeline_id, suite_name, classname, name, status, file, execution_time, system_output FROM ci_test_cases
        WHERE pipeline_id = ANY($1::bigint[]) AND status IN ('failed', 'error')`,
      [[headId, baseId]],
    ),
  );
}

/**
 * A pipeline's test report of 5,000 cases on PostgreSQL: the summary (the merge request widget's
 * and the Tests tab counter's call) beside the raw SQL that counts the same rows, and the full
 * report (every case, sorted, as JSON) for information.
 */
export async function benchTestReports(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-test-reports-');
  const database = await benchDatabase(cleanup);
  const server = await startTributary(cleanup, { name: 'tributary (test reports)', dataDir: dir, databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await api<{ id: number; path_with_namespace: string }>(server, token, 'POST', '/projects', { name: 'bench-tests', path: 'bench-tests', initialize_with_readme: true });
  const config = Array.from({ length: SUITES }, (_, i) => `suite-${i}:\n  script: [make test]\n  artifacts:\n    reports:\n      junit: report.xml\n`).join('');
  await api(server, token, 'POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: config, commit_message: 'Add CI' });
  let pipelineId = 0;
  for (let tries = 0; tries < 600 && !pipelineId; tries++) {
    pipelineId = (await api<{ id: number }[]>(server, token, 'GET', `/projects/${project.id}/pipelines`))[0]?.id ?? 0;
    if (!pipelineId) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!pipelineId) throw new Error('the pipeline was not created');
  const jobs = await api<{ id: number }[]>(server, token, 'GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`);
  const seeded = await timed(() => seedReport(database.url, pipelineId, jobs.map((job) => job.id).sort((a, b) => a - b)));

  const sample = async (url: string, check: (body: any) => void) => {
    check((await timedGet(url, token)).body); // warm-up
    return samplesOf(SAMPLES, () => timedGet(url, token));
  };
  const base = `${server.url}/api/v4/projects/${project.id}/pipelines/${pipelineId}`;
  const summary = await sample(`${base}/test_report_summary`, (body) => {
    if (body.total.count !== CASES) throw new Error(`the summary counted ${body.total.count} cases, expected ${CASES}`);
  });
  const full = await sample(`${base}/test_report`, (body) => {
    if (body.total_count !== CASES) throw new Error(`the report counted ${body.total_count} cases, expected ${CASES}`);
  });
  // the merge request's test summary: a branch whose pipeline fails 3% of the same cases against main's 2%
  await api(server, token, 'POST', `/projects/${project.id}/repository/files/feature.txt`, { branch: 'feature', start_branch: 'main', content: 'x\n', commit_message: 'Feature' });
  let headId = 0;
  for (let tries = 0; tries < 600 && !headId; tries++) {
    headId = (await api<{ id: number; ref: string }[]>(server, token, 'GET', `/projects/${project.id}/pipelines?ref=feature`))[0]?.id ?? 0;
    if (!headId) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!headId) throw new Error('the feature pipeline was not created');
  const headJobs = await api<{ id: number }[]>(server, token, 'GET', `/projects/${project.id}/pipelines/${headId}/jobs`);
  await seedReport(database.url, headId, headJobs.map((job) => job.id).sort((a, b) => a - b), 3);
  const mr = await api<{ iid: number }>(server, token, 'POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Feature' });
  let comparison: number[] = [];
  for (let tries = 0; tries < 600 && comparison.length === 0; tries++) {
    try {
      comparison = await sample(`${server.url}/${project.path_with_namespace}/-/merge_requests/${mr.iid}/test_reports.json`, (body) => {
        if (body.summary?.total !== CASES) throw new Error(`the comparison counted ${body.summary?.total} cases, expected ${CASES}`);
      });
    } catch (error) {
      // the merge request's first diff version is recorded in the background: ask again
      if (tries === 599) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const rawComparison = await rawSqlComparison(database.url, headId, pipelineId);

  const raw = await rawSqlSummary(database.url, pipelineId);
  const rawMedian = median(raw);
  const row = (benchmark: string, samples: number[], target: string, ok: boolean): Row => ({
    benchmark,
    tributary: formatMs(median(samples)),
    baseline: `raw SQL ${formatMs(rawMedian)}`,
    ratio: formatRatio(median(samples) / rawMedian),
    target,
    verdict: verdict(ok),
  });
  return {
    rows: [
      row(`Test report summary (${CASES.toLocaleString('en')} cases, ${SUITES} suites)`, summary, `< ${SUMMARY_TARGET_MS} ms`, median(summary) < SUMMARY_TARGET_MS),
      { ...row(`Full test report (${CASES.toLocaleString('en')} cases as JSON)`, full, 'info', true), verdict: 'info' },
      {
        benchmark: `Merge request test summary (test_reports.json, ${CASES.toLocaleString('en')} cases against ${CASES.toLocaleString('en')})`,
        tributary: formatMs(median(comparison)),
        baseline: `raw SQL ${formatMs(median(rawComparison))}`,
        ratio: formatRatio(median(comparison) / median(rawComparison)),
        target: `< ${SUMMARY_TARGET_MS} ms`,
        verdict: verdict(median(comparison) < SUMMARY_TARGET_MS),
      },
    ],
    notes: [`Test reports: ${CASES} cases seeded by SQL in ${formatMs(seeded.ms)} on ${database.description}; samples (ms): summary ${formatSamples(summary)}; full report ${formatSamples(full)}; raw SQL ${formatSamples(raw)}; merge request comparison ${formatSamples(comparison)}, its raw SQL ${formatSamples(rawComparison)}.`],
  };
}
