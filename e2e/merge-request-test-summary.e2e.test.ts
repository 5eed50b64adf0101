import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The merge request's test summary against a real server: a runner takes the target branch's job
 * and the source branch's through the runner protocol API and uploads their JUnit reports (GitLab
 * Runner's gzip format); the source adds a failing test to a passing target, and the widget
 * reports it as a new failure, with its output in the details dialog; the coverage line shows the
 * branch's coverage and its change against the target's.
 */
const session = browserSession('mr-test-summary');

const CONFIG = `rspec:
  script: [make test]
  coverage: '/Coverage: \\d+\\.\\d+%/'
  artifacts:
    reports:
      junit: report.xml
`;

const report = (cases: string) => `<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="Cart">${cases}</testsuite></testsuites>`;
const PASSING = '<testcase classname="CartSpec" name="adds an item" file="./spec/cart_spec.rb" time="0.01"/><testcase classname="CartSpec" name="removes an item" file="./spec/cart_spec.rb" time="0.02"/>';
const FAILING = '<testcase classname="CartSpec" name="applies the discount" file="./spec/cart_spec.rb" time="0.3"><failure message="expected 90">expected 90, got 100</failure></testcase>';

async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the merge request’s test summary', () => {
  it('shows the failing test the merge request adds as a new failure against the passing target', async () => {
    const project = await session.rest<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: 'Shop', path: 'shop', initialize_with_readme: true });
    const runner = await session.rest<{ token: string }>('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, run_untagged: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    await session.rest('POST', `/projects/${project.id}/repository/files/spec%2Fdiscount_spec.rb`, { branch: 'discount', start_branch: 'main', content: 'it "applies the discount"\n', commit_message: 'Add a discount test' });
    const mr = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'discount', target_branch: 'main', title: 'Discounts' });

    // the runner's side: the target's job passes, the source's adds the failing case
    const base = `${session.server.url}/api/v4`;
    const finished = new Set<string>();
    while (finished.size < 2) {
      const job = await until(async () => {
        const response = await fetch(`${base}/jobs/request`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runner.token }) });
        return response.status === 201 ? ((await response.json()) as { id: number; token: string; git_info: { ref: string } }) : undefined;
      });
      const failing = job.git_info.ref === 'discount';
      // the job's log: the coverage regex finds 62.50% on the branch, 50.00% on the target
      const log = `running\nCoverage: ${failing ? '62.50' : '50.00'}%\n`;
      expect((await fetch(`${base}/jobs/${job.id}/trace`, { method: 'PATCH', headers: { 'JOB-TOKEN': job.token, 'Content-Range': `0-${Buffer.byteLength(log) - 1}` }, body: log })).status).toBe(202);
      const form = new FormData();
      form.append('file', new Blob([gzipSync(report(failing ? PASSING + FAILING : PASSING))]), 'junit.gz');
      expect((await fetch(`${base}/jobs/${job.id}/artifacts?artifact_type=junit&artifact_format=gzip`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form })).status).toBe(201);
      const state = failing ? { state: 'failed', failure_reason: 'script_failure' } : { state: 'success' };
      await fetch(`${base}/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token }, body: JSON.stringify({ token: job.token, ...state }) });
      finished.add(job.git_info.ref);
    }

    // both pipelines' coverage is read from their logs after the jobs end
    for (const { id } of await session.rest<{ id: number }[]>('GET', `/projects/${project.id}/pipelines`)) {
      await until(async () => (await session.rest<{ coverage: string | null }>('GET', `/projects/${project.id}/pipelines/${id}`)).coverage !== null);
    }

    const page = await session.signIn();
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}`);
    const coverage = page.getByTestId('pipeline-coverage');
    await coverage.getByText('Test coverage 62.50%').waitFor();
    await coverage.getByRole('button', { name: '(12.50%)' }).waitFor();
    expect(await coverage.getByRole('button', { name: '(12.50%)' }).getAttribute('aria-describedby')).toBeTruthy();
    const summary = page.getByRole('region', { name: 'Test summary' });
    // the widget polls while the server is still parsing the reports, then shows the comparison
    await summary.getByText('Test summary: 1 failed, 3 total tests').waitFor({ timeout: 60_000 });
    await session.snap('collapsed', page);

    await summary.getByRole('button', { name: 'Expand test summary' }).click();
    await summary.getByText('rspec: 1 failed, 3 total tests').waitFor();
    const cases = summary.getByRole('list', { name: 'rspec test cases' });
    const first = cases.getByRole('listitem').first();
    expect((await first.innerText()).replace(/\s+/g, ' ')).toContain('New');
    expect(await first.getAttribute('data-section')).toBe('new');
    await first.getByText('applies the discount').waitFor();
    await session.snap('expanded', page);

    await summary.getByRole('button', { name: 'View details: applies the discount' }).click();
    const dialog = page.getByRole('dialog', { name: 'CartSpec' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('System output').innerText()).toContain('expected 90, got 100');
    await session.snap('case-details', page);
  });
});
