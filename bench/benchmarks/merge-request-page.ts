/**
 * The merge request page's first widget content, on PostgreSQL: a merge request whose head
 * pipeline has 300 jobs (20 of them deploying to their own environment) and a JUnit report of
 * 5,000 cases. Timed: every call the widget makes for its first paint, as the web app makes them —
 * the GraphQL widget query (MERGE_REQUEST_WIDGET_QUERY, word for word), then at once the mini
 * graph's jobs (3 pages of 100, and the bridges), the deployments (`ci_environments_status`), the
 * test summary (`test_reports.json`) and the exposed artifacts — from the first request to the
 * last byte. Baseline: the raw SQL reading the same rows through node-postgres (the merge request,
 * the pipeline's jobs, the deployments with their environments, both pipelines' failed cases).
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { MERGE_REQUEST_WIDGET_QUERY } from '../../packages/contracts/src/merge-widget.js';
import type { Cleanup } from '../lib/cleanup.js';
import { benchDatabase } from '../lib/postgres.js';
import { assertLocal } from '../lib/process.js';
import { formatMs, formatRatio, formatSamples, median, timed } from '../lib/stats.js';
import type { Row } from '../lib/table.js';
import { api, createRootToken, startTributary } from '../lib/tributary.js';
import { ROOT_PASSWORD, verdict, type BenchResult } from './common.js';
import { seedReport } from './test-reports.js';

const BUILD_JOBS = 140;
const TEST_JOBS = 140;
const DEPLOYMENTS = 20;
const JOBS = BUILD_JOBS + TEST_JOBS + DEPLOYMENTS;
const SAMPLES = 9;
/** The target for the first widget content. */
const FIRST_CONTENT_TARGET_MS = 1000;

/** 300 jobs in three stages; the 20 deploy jobs each start an environment with a url. */
export function pageYaml(): string {
  const lines = ['stages: [build, test, deploy]', '.job:', '  script: ["true"]'];
  for (let i = 0; i < BUILD_JOBS; i++) lines.push(`build-${i}:`, '  extends: .job', '  stage: build');
  for (let i = 0; i < TEST_JOBS; i++) lines.push(`test-${i}:`, '  extends: .job', '  stage: test', '  artifacts:', '    reports:', '      junit: report.xml');
  for (let i = 0; i < DEPLOYMENTS; i++) {
    lines.push(`deploy-${i}:`, '  extends: .job', '  stage: deploy', '  environment:', `    name: review/app-${i}`, `    url: https://app-${i}.example.com`);
  }
  return `${lines.join('\n')}\n`;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let tries = 0; tries < 1200; tries++) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function benchMergeRequestPage(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-mr-page-');
  const database = await benchDatabase(cleanup);
  const server = await startTributary(cleanup, { name: 'tributary (merge request page)', dataDir: dir, databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  assertLocal(server.url);
  const token = await createRootToken(server);
  const headers = { 'PRIVATE-TOKEN': token };
  const project = await api<{ id: number; path_with_namespace: string }>(server, token, 'POST', '/projects', { name: 'bench-page', path: 'bench-page', initialize_with_readme: true });
  // main: a one-job pipeline whose report is the base of the comparison
  await api(server, token, 'POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: 'unit:\n  script: ["true"]\n', commit_message: 'Add CI' });
  const basePipeline = await until('the main pipeline', async () => (await api<{ id: number }[]>(server, token, 'GET', `/projects/${project.id}/pipelines?ref=main`))[0]);
  const baseJobs = await api<{ id: number }[]>(server, token, 'GET', `/projects/${project.id}/pipelines/${basePipeline.id}/jobs`);
  // feature: the 300-job pipeline
  const created = await timed(async () => {
    await api(server, token, 'PUT', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'feature', start_branch: 'main', content: pageYaml(), commit_message: 'The big pipeline' });
    const pipeline = await until('the feature pipeline', async () => (await api<{ id: number }[]>(server, token, 'GET', `/projects/${project.id}/pipelines?ref=feature`))[0]);
    await until(`${JOBS} jobs`, async () => ((await api<unknown[]>(server, token, 'GET', `/projects/${project.id}/pipelines/${pipeline.id}/jobs?per_page=1`)).length > 0 ? true : undefined));
    return pipeline;
  });
  const headPipeline = created.value;
  // the 5,000 cases, as the ingest job writes them: main's 2 % failed, the feature's 3 %
  const testJobs = (await api<{ id: number; name: string }[]>(server, token, 'GET', `/projects/${project.id}/pipelines/${headPipeline.id}/jobs?per_page=100&page=2`)).map((job) => job.id);
  await seedReport(database.url, basePipeline.id, baseJobs.map((job) => job.id));
  await seedReport(database.url, headPipeline.id, testJobs.slice(0, 5).sort((a, b) => a - b), 3);
  const mr = await api<{ id: number; iid: number }>(server, token, 'POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'The big pipeline' });
  const webBase = `${server.url}/${project.path_with_namespace}/-/merge_requests/${mr.iid}`;
  // the diff version is recorded in the background: wait for the comparison to answer
  await until('the test comparison', async () => ((await fetch(`${webBase}/test_reports.json`, { headers })).status === 200 ? true : undefined));

  const getJson = async (url: string) => {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
    if (!response.ok && response.status !== 204) throw new Error(`GET ${url} answered ${response.status}`);
    return response.status === 204 ? undefined : response.json();
  };
  const widgetBody = JSON.stringify({ query: MERGE_REQUEST_WIDGET_QUERY, variables: { projectPath: project.path_with_namespace, iid: String(mr.iid) } });
  /** The widget's first paint: its query, then what its panels read once they know the head pipeline. */
  const firstContent = async () => {
    const answer = await fetch(`${server.url}/api/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: widgetBody, signal: AbortSignal.timeout(30_000) });
    const body = (await answer.json()) as { data?: { project?: { mergeRequest?: { headPipeline?: { id: string } | null } } }; errors?: unknown };
    const head = body.data?.project?.mergeRequest?.headPipeline;
    if (!head) throw new Error(`the widget query gave no head pipeline: ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
    const pipelineId = Number(head.id.split('/').pop());
    const jobsBase = `${server.url}/api/v4/projects/${project.id}/pipelines/${pipelineId}`;
    const [jobs1, jobs2, jobs3, , deployments, comparison] = (await Promise.all([
      getJson(`${jobsBase}/jobs?per_page=100&page=1`),
      getJson(`${jobsBase}/jobs?per_page=100&page=2`),
      getJson(`${jobsBase}/jobs?per_page=100&page=3`),
      getJson(`${jobsBase}/bridges?per_page=100&page=1`),
      getJson(`${webBase}/ci_environments_status`),
      getJson(`${webBase}/test_reports.json`),
      getJson(`${webBase}/exposed_artifacts.json`),
    ])) as [unknown[], unknown[], unknown[], unknown, unknown[], { summary: { total: number } }, unknown];
    return { jobs: jobs1.length + jobs2.length + jobs3.length, deployments: deployments.length, cases: comparison.summary.total };
  };

  const warm = await firstContent();
  if (warm.jobs !== JOBS || warm.deployments !== DEPLOYMENTS || warm.cases !== 5_000) throw new Error(`first content read ${JSON.stringify(warm)}, expected ${JOBS} jobs, ${DEPLOYMENTS} deployments, 5000 cases`);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push((await timed(firstContent)).ms);

  // the raw SQL of the same rows, one connection, the same order
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const raw: number[] = [];
  try {
    const rawRead = async () => {
      await client.query('SELECT * FROM merge_requests WHERE id = $1', [mr.id]);
      await Promise.all([
        client.query('SELECT * FROM ci_builds WHERE pipeline_id = $1 ORDER BY id', [headPipeline.id]),
        client.query('SELECT d.*, e.* FROM deployments d JOIN environments e ON e.id = d.environment_id WHERE d.project_id = $1 AND d.sha = (SELECT sha FROM ci_pipelines WHERE id = $2)', [project.id, headPipeline.id]),
        client.query(`SELECT pipeline_id, suite_name, classname, name, status, file, execution_time, system_output FROM ci_test_cases WHERE pipeline_id = ANY($1::bigint[]) AND status IN ('failed', 'error')`, [[headPipeline.id, basePipeline.id]]),
      ]);
    };
    await rawRead();
    for (let i = 0; i < SAMPLES; i++) {
      const start = performance.now();
      await rawRead();
      raw.push(performance.now() - start);
    }
  } finally {
    await client.end().catch(() => undefined);
  }

  const row: Row = {
    benchmark: `Merge request page: first widget content (${JOBS}-job pipeline, ${DEPLOYMENTS} deployments, 5,000-case test report)`,
    tributary: formatMs(median(samples)),
    baseline: `raw SQL ${formatMs(median(raw))}`,
    ratio: formatRatio(median(samples) / median(raw)),
    target: `< ${formatMs(FIRST_CONTENT_TARGET_MS)}`,
    verdict: verdict(median(samples) < FIRST_CONTENT_TARGET_MS),
  };
  return {
    rows: [row],
    notes: [
      `Merge request page on ${database.description}: the ${JOBS}-job pipeline pushed and created in ${formatMs(created.ms)}; first widget content samples (ms) ${formatSamples(samples)}; raw SQL ${formatSamples(raw)}.`,
    ],
  };
}
