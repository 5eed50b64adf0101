import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The pipeline's Tests tab against a real server: a runner takes the job through the runner
 * protocol API and uploads a JUnit report (GitLab Runner's gzip format), then the tab shows the
 * totals, the suites table, a suite's cases with failures first, and a case's output in a dialog.
 * A Cobertura report of a merge request's head pipeline marks the new lines of its Changes tab.
 */
const session = browserSession('test-reports');

const CONFIG = `rspec:
  script: [make test]
  artifacts:
    reports:
      junit: report.xml
`;

const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="Calculator">
    <testcase classname="spec.calculator_spec" name="adds two numbers" file="spec/calculator_spec.rb" time="0.012"/>
    <testcase classname="spec.calculator_spec" name="divides by zero" file="spec/calculator_spec.rb" time="0.31">
      <failure message="expected ZeroDivisionError">Failure/Error: expect { 1 / 0 }.to raise_error(ArgumentError)
  expected ArgumentError, got ZeroDivisionError
# ./spec/calculator_spec.rb:14</failure>
      <system-out>dividing 1 by 0</system-out>
    </testcase>
    <testcase classname="spec.calculator_spec" name="multiplies" file="spec/calculator_spec.rb" time="0.004"/>
    <testcase classname="spec.calculator_spec" name="handles big numbers" time="0"><skipped/></testcase>
  </testsuite>
</testsuites>`;

const COVERAGE_CONFIG = `unit:
  script: [make test]
  artifacts:
    reports:
      coverage_report:
        coverage_format: cobertura
        path: coverage.xml
`;

const COBERTURA = `<?xml version="1.0"?><coverage><packages><package><classes><class filename="app/calc.py"><lines>
  <line number="1" hits="3"/><line number="2" hits="0"/><line number="3" hits="1"/>
</lines></class></classes></package></packages></coverage>`;

async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the pipeline Tests tab', () => {
  let project: { id: number; path_with_namespace: string };
  let empty: { id: number; path_with_namespace: string };
  let pipelineId: number;
  let page: Page;

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Tested', path: 'tested', initialize_with_readme: true });
    empty = await session.rest('POST', '/projects', { name: 'Untested', path: 'untested', initialize_with_readme: true });
    await session.rest('POST', `/projects/${empty.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: 'build:\n  script: make\n', commit_message: 'Add CI' });
    const runner = await session.rest<{ token: string }>('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, run_untagged: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    pipelineId = (await until(async () => (await session.rest<{ id: number }[]>('GET', `/projects/${project.id}/pipelines`))[0])).id;
    // the runner's side: take the job, upload its report, finish it
    const base = `${session.server.url}/api/v4`;
    const job = await until(async () => {
      const response = await fetch(`${base}/jobs/request`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runner.token }) });
      return response.status === 201 ? ((await response.json()) as { id: number; token: string }) : undefined;
    });
    const form = new FormData();
    form.append('file', new Blob([gzipSync(REPORT)]), 'junit.gz');
    expect((await fetch(`${base}/jobs/${job.id}/artifacts?artifact_type=junit&artifact_format=gzip`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form })).status).toBe(201);
    const finished = await fetch(`${base}/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token }, body: JSON.stringify({ token: job.token, state: 'failed', failure_reason: 'script_failure' }) });
    expect(finished.status).toBe(200);
    await until(async () => (await session.rest<{ total: { count: number } }>('GET', `/projects/${project.id}/pipelines/${pipelineId}/test_report_summary`)).total.count > 0);
    page = await session.signIn();
  });

  it('shows the totals and the suites, a suite’s cases failures first, and a case’s output in a dialog', async () => {
    await page.goto(`/${project.path_with_namespace}/-/pipelines/${pipelineId}`);
    const tabs = page.getByRole('navigation', { name: 'Pipeline tabs' });
    await tabs.getByRole('link', { name: /Tests/ }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/pipelines/${pipelineId}/test_report`);
    const summary = page.getByLabel('Test summary');
    await summary.waitFor();
    expect((await summary.innerText()).replace(/\s+/g, ' ')).toBe('Tests 4 Failures 1 Errors 0 Skipped 1 Success rate 66.67% Duration 326 ms');
    const suites = page.getByRole('table', { name: 'Test suites' });
    await suites.waitFor();
    const row = suites.getByRole('row').filter({ has: page.getByRole('button', { name: 'rspec' }) });
    expect((await row.innerText()).split(/\s+/).filter(Boolean)).toEqual(['rspec', '326', 'ms', '1', '0', '1', '2', '4']);
    await session.snap('suites', page);

    await row.getByRole('button', { name: 'rspec' }).click();
    const cases = page.getByRole('table', { name: 'Tests of rspec' });
    await cases.waitFor();
    const names = await cases.getByRole('row').evaluateAll((rows) => rows.slice(1).map((r) => (r as HTMLTableRowElement).cells[1]!.textContent));
    expect(names).toEqual(['divides by zero', 'adds two numbers', 'multiplies', 'handles big numbers']);
    await cases.getByRole('row').nth(1).getByText('Failed').waitFor();
    await session.snap('cases', page);

    await page.getByRole('button', { name: 'View details of divides by zero' }).click();
    const dialog = page.getByRole('dialog', { name: 'divides by zero' });
    await dialog.waitFor();
    const output = await dialog.getByLabel('System output').innerText();
    expect(output).toContain('expected ArgumentError, got ZeroDivisionError');
    expect(output).toContain('System Out:\n\ndividing 1 by 0');
    await session.snap('case-dialog', page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Back to suites' }).click();
    await suites.waitFor();
  });

  it('shows a status another CI system posted in the graph’s external stage', async () => {
    const pipeline = await session.rest<{ sha: string }>('GET', `/projects/${project.id}/pipelines/${pipelineId}`);
    await session.rest('POST', `/projects/${project.id}/statuses/${pipeline.sha}`, { state: 'success', name: 'jenkins', target_url: 'https://ci.example.com/job/7', pipeline_id: pipelineId });
    await page.goto(`/${project.path_with_namespace}/-/pipelines/${pipelineId}`);
    const stage = page.getByRole('region', { name: 'Pipeline graph' }).getByRole('region', { name: 'Stage external' });
    const link = stage.getByRole('link', { name: 'jenkins' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('https://ci.example.com/job/7');
    await stage.getByRole('img', { name: 'Status: passed' }).waitFor();
    await session.snap('external-stage', page);
  });

  it('says so when the pipeline has no test report', async () => {
    const emptyPipeline = await until(async () => (await session.rest<{ id: number }[]>('GET', `/projects/${empty.id}/pipelines`))[0]);
    await page.goto(`/${empty.path_with_namespace}/-/pipelines/${emptyPipeline.id}/test_report`);
    await page.getByRole('heading', { name: 'There are no tests to display' }).waitFor();
    await session.snap('empty', page);
  });
});

describe('coverage in the Changes tab', () => {
  it('marks the new lines the head pipeline’s Cobertura report covers, and those it does not', async () => {
    const project = await session.rest<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: 'Covered', path: 'covered', initialize_with_readme: true });
    const runner = await session.rest<{ token: string }>('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, run_untagged: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: COVERAGE_CONFIG, commit_message: 'Add CI' });
    await session.rest('POST', `/projects/${project.id}/repository/files/app%2Fcalc.py`, {
      branch: 'feature',
      start_branch: 'main',
      content: 'def add(a, b):\n    return a + b\nprint(add(1, 2))\n',
      commit_message: 'Add calc',
    });
    const mr = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Add calc' });
    // the runner's side: every job finishes; the feature branch's uploads the coverage report
    const base = `${session.server.url}/api/v4`;
    for (let done = false; !done; ) {
      const job = await until(async () => {
        const response = await fetch(`${base}/jobs/request`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runner.token }) });
        return response.status === 201 ? ((await response.json()) as { id: number; token: string; git_info: { ref: string } }) : undefined;
      });
      if (job.git_info.ref === 'feature') {
        const form = new FormData();
        form.append('file', new Blob([gzipSync(COBERTURA)]), 'cobertura.gz');
        expect((await fetch(`${base}/jobs/${job.id}/artifacts?artifact_type=cobertura&artifact_format=gzip`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form })).status).toBe(201);
        done = true;
      }
      await fetch(`${base}/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token }, body: JSON.stringify({ token: job.token, state: 'success' }) });
    }
    const reportPath = `${session.server.url}/${project.path_with_namespace}/-/merge_requests/${mr.iid}/coverage_reports.json`;
    await until(async () => (await fetch(reportPath, { headers: { 'PRIVATE-TOKEN': session.server.root.token } })).status === 200);

    const page = await session.signIn();
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}/diffs`);
    const changes = page.getByRole('region', { name: 'Changes' });
    await changes.getByRole('heading', { name: 'app/calc.py', exact: true }).first().waitFor();
    await changes.getByRole('img', { name: 'Test coverage: 3 hits' }).waitFor();
    await changes.getByRole('img', { name: 'No test coverage' }).waitFor();
    expect(await changes.getByRole('img', { name: /Test coverage: \d+ hits/ }).count()).toBe(2);
    await session.snap('changes-coverage', page);
  });
});
