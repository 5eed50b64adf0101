/**
 * Test and coverage reports end to end: real pipelines whose jobs a runner takes and finishes
 * through the runner protocol API (log, junit and Cobertura artifacts in GitLab Runner's gzip
 * format), then GitLab's test_report, test_report_summary, job and pipeline coverage, and the
 * merge request's test_reports.json and coverage_reports.json against the target's pipeline.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { eventually } from '../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';
import { graphql } from '../../api/graphql/testing.js';
import { gitbeakerClient, type TestUser } from '../../test-support/server.js';

const CONFIG = `rspec:
  script: [make test]
  coverage: '/Coverage: \\d+\\.\\d+%/'
  artifacts:
    reports:
      junit: report.xml
      coverage_report:
        coverage_format: cobertura
        path: coverage.xml
`;

const junit = (cases: string) => `<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="rspec">${cases}</testsuite></testsuites>`;
const cobertura = (path: string, lines: [number, number][]) =>
  `<?xml version="1.0"?><coverage><sources><source>/builds/x/y</source></sources><packages><package><classes><class filename="${path}"><lines>${lines.map(([n, h]) => `<line number="${n}" hits="${h}"/>`).join('')}</lines></class></classes></package></packages></coverage>`;

describe(`CI reports through the runner protocol (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let runnerToken: string;
  let reporter: TestUser;
  let stranger: TestUser;

  const api = (path: string, init: RequestInit = {}) => fetch(`${fx.server.url}/api/v4${path}`, init);
  /** Takes the next pending job, writes its log and reports, and ends it with `state`. */
  async function runJob(log: string, reports: { junit?: string | Buffer; cobertura?: string }, state: 'success' | 'failed') {
    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).length > 0);
    const taken = await api('/jobs/request', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0' } }) });
    expect(taken.status).toBe(201);
    const job = (await taken.json()) as { id: number; token: string; artifacts: { artifact_type: string; artifact_format: string }[] };
    expect(job.artifacts.map((a) => [a.artifact_type, a.artifact_format])).toEqual([
      ['junit', 'gzip'],
      ['cobertura', 'gzip'],
    ]);
    const trace = await api(`/jobs/${job.id}/trace`, { method: 'PATCH', headers: { 'JOB-TOKEN': job.token, 'Content-Range': `0-${Buffer.byteLength(log) - 1}` }, body: log });
    expect(trace.status).toBe(202);
    for (const [type, content] of [['junit', reports.junit], ['cobertura', reports.cobertura]] as const) {
      if (content === undefined) continue;
      const form = new FormData();
      form.append('file', new Blob([typeof content === 'string' ? gzipSync(content) : content]), `${type}.gz`);
      const uploaded = await api(`/jobs/${job.id}/artifacts?artifact_type=${type}&artifact_format=gzip`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form });
      expect(uploaded.status).toBe(201);
    }
    const done = await api(`/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token }, body: JSON.stringify({ token: job.token, state, ...(state === 'failed' ? { failure_reason: 'script_failure', exit_code: 1 } : {}) }) });
    expect(done.status).toBe(200);
    return job;
  }

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('reports');
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
    runnerToken = ((await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string }).token;
    await fx.root.RepositoryFiles.create(project.id, 'app/a.py', 'main', 'a = 1\nb = 2\nc = 3\n', 'Add a.py');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
  });
  afterAll(() => fx?.close());

  it('parses the junit report and the coverage of a finished job, for GitLab’s test_report and summary', async () => {
    // two gzip members: GitLab Runner gzips each matched file and concatenates them
    const reportFile = Buffer.concat([
      gzipSync(junit('<testcase classname="spec.a" name="works" time="0.5"/><testcase classname="spec.a" name="flaky" time="1.25"><failure>expected true</failure><system-out>out</system-out></testcase>')),
      gzipSync(junit('<testcase classname="spec.b" name="skipped one"><skipped/></testcase>')),
    ]);
    const job = await runJob('running tests\nCoverage: 12.5%\nCoverage: 81.25%\n', { junit: reportFile, cobertura: cobertura('app/a.py', [[1, 1], [2, 0]]) }, 'failed');
    const pipelineId = ((await fx.root.Jobs.show(project.id, job.id)) as Record<string, any>).pipeline.id as number;
    const summary = await eventually(async () => {
      const body = (await fx.root.Pipelines.showTestReportSummary(project.id, pipelineId)) as Record<string, any>;
      return body.total.count > 0 ? body : undefined;
    });
    expect(summary).toEqual({
      total: { time: 1.75, count: 3, success: 1, failed: 1, skipped: 1, error: 0, suite_error: null },
      test_suites: [{ name: 'rspec', total_time: 1.75, total_count: 3, success_count: 1, failed_count: 1, skipped_count: 1, error_count: 0, build_ids: [job.id], suite_error: null }],
    });
    const report = (await gitbeakerClient(fx.server.url, reporter.token).Pipelines.showTestReport(project.id, pipelineId)) as Record<string, any>;
    expect(Object.keys(report)).toEqual(['total_time', 'total_count', 'success_count', 'failed_count', 'skipped_count', 'error_count', 'test_suites']);
    expect(report.test_suites[0].test_cases).toEqual([
      { status: 'failed', name: 'flaky', classname: 'spec.a', file: null, execution_time: 1.25, system_output: 'expected true\n\nSystem Out:\n\nout', stack_trace: null, recent_failures: null },
      { status: 'success', name: 'works', classname: 'spec.a', file: null, execution_time: 0.5, system_output: null, stack_trace: null, recent_failures: null },
      { status: 'skipped', name: 'skipped one', classname: 'spec.b', file: null, execution_time: 0, system_output: null, stack_trace: null, recent_failures: null },
    ]);
    // the job's coverage regex on its log (the last match), and the pipeline's average
    expect(((await fx.root.Jobs.show(project.id, job.id)) as Record<string, any>).coverage).toBe(81.25);
    expect(((await fx.root.Pipelines.show(project.id, pipelineId)) as Record<string, any>).coverage).toBe('81.25');
  });

  it('keeps a broken report as the suite error, never expanding entities', async () => {
    await fx.root.RepositoryFiles.edit(project.id, 'app/a.py', 'main', 'a = 1\nb = 2\nc = 4\n', 'Change a.py');
    const xxe = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&e;"/></testsuite>';
    const job = await runJob('no coverage here\n', { junit: xxe }, 'success');
    const pipelineId = ((await fx.root.Jobs.show(project.id, job.id)) as Record<string, any>).pipeline.id as number;
    const summary = await eventually(async () => {
      const body = (await fx.root.Pipelines.showTestReportSummary(project.id, pipelineId)) as Record<string, any>;
      return body.test_suites.length > 0 ? body : undefined;
    });
    expect(summary.test_suites[0]).toMatchObject({ name: 'rspec', total_count: 0, suite_error: 'JUnit XML parsing failed: DOCTYPE is not allowed' });
    expect(summary.total.suite_error).toBe('JUnit XML parsing failed: DOCTYPE is not allowed');
    expect(((await fx.root.Jobs.show(project.id, job.id)) as Record<string, any>).coverage).toBeNull();
  });

  it('compares a merge request’s head pipeline with its base, and answers its line coverage', async () => {
    // the merge request's base is main's new head; its pipeline gets the base report
    await fx.root.RepositoryFiles.create(project.id, 'app/b.py', 'main', 'b\n', 'Add b.py');
    const base = await runJob('Coverage: 50.00%\n', { junit: junit('<testcase classname="c" name="fixed"><failure>x</failure></testcase><testcase classname="c" name="broken"/><testcase classname="c" name="still"><failure>y</failure></testcase>') }, 'failed');
    expect(base.id).toBeGreaterThan(0);
    // one push creates the branch with its commit: one pipeline, at the merge request's head
    await fx.root.RepositoryFiles.edit(project.id, 'app/a.py', 'feature', 'a = 1\nb = 20\nc = 4\n', 'Change b', { startBranch: 'main' });
    await runJob('Coverage: 75.00%\n', {
      junit: junit('<testcase classname="c" name="fixed"/><testcase classname="c" name="broken"><failure>now broken</failure></testcase><testcase classname="c" name="still"><failure>y</failure></testcase><testcase classname="c" name="new error"><error>boom</error></testcase>'),
      cobertura: cobertura('app/a.py', [[1, 3], [2, 0], [3, 1]]),
    }, 'failed');
    const mr = await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Feature');
    const web = (suffix: string, token: string | null = fx.server.root.token) =>
      fetch(`${fx.server.url}/${project.path_with_namespace}/-/merge_requests/${mr.iid}/${suffix}`, { headers: token ? { 'private-token': token } : {} });

    const compared = await eventually(async () => {
      const response = await web('test_reports.json');
      return response.status === 200 ? ((await response.json()) as Record<string, any>) : undefined;
    });
    expect(compared.status).toBe('failed');
    expect(compared.summary).toEqual({ total: 4, resolved: 1, failed: 2, errored: 1 });
    const suite = compared.suites[0];
    expect([suite.name, suite.status]).toEqual(['rspec', 'failed']);
    expect(suite.new_failures.map((c: { name: string }) => c.name)).toEqual(['broken']);
    expect(suite.existing_failures.map((c: { name: string }) => c.name)).toEqual(['still']);
    expect(suite.resolved_failures.map((c: { name: string }) => c.name)).toEqual(['fixed']);
    expect(suite.new_errors.map((c: { name: string }) => c.name)).toEqual(['new error']);

    // the widget's coverage line: head 75% against the base pipeline's 50% (GitLab's pipeline_coverage_delta)
    const widget = await eventually(async () => {
      const body = (await (await web('widget.json')).json()) as Record<string, any>;
      return body.pipeline_coverage_delta !== null ? body : undefined;
    });
    expect(widget.pipeline.coverage).toBe('75.00');
    expect(widget.pipeline_coverage_delta).toBe('25.00');
    expect(widget.builds_with_coverage).toEqual([{ name: 'rspec', coverage: 75 }]);
    const answer = await graphql(fx.server.url, 'query($p: ID!, $iid: String!) { project(fullPath: $p) { mergeRequest(iid: $iid) { pipelineCoverageDelta buildsWithCoverage { name coverage } headPipeline { coverage } } } }', { p: project.path_with_namespace, iid: String(mr.iid) }, { token: fx.server.root.token });
    expect(answer.body.data.project.mergeRequest).toEqual({ pipelineCoverageDelta: '25.00', buildsWithCoverage: [{ name: 'rspec', coverage: 75 }], headPipeline: { coverage: 75 } });
    // who may not read the pipelines sees neither
    const hidden = await fetch(`${fx.server.url}/${project.path_with_namespace}/-/merge_requests/${mr.iid}/widget.json`, { headers: { 'private-token': stranger.token } });
    expect(hidden.status).toBe(404);

    const coverage = await web('coverage_reports.json');
    expect(coverage.status).toBe(200);
    expect(await coverage.json()).toEqual({ files: { 'app/a.py': { '1': 3, '2': 0, '3': 1 } } });

    // who may not see the project gets a 404, as an absent merge request does
    expect((await web('test_reports.json', stranger.token)).status).toBe(404);
    expect((await web('coverage_reports.json', null)).status).toBe(404);
    expect((await fetch(`${fx.server.url}/${project.path_with_namespace}/-/merge_requests/999/test_reports.json`, { headers: { 'private-token': fx.server.root.token } })).status).toBe(404);
  });

  it('answers 400 with GitLab’s status_reason when the head pipeline has no test report', async () => {
    await fx.root.RepositoryFiles.edit(project.id, 'app/a.py', 'quiet', 'quiet\n', 'Quiet', { startBranch: 'main' });
    const mr = await fx.root.MergeRequests.create(project.id, 'quiet', 'main', 'Quiet');
    const response = await fetch(`${fx.server.url}/${project.path_with_namespace}/-/merge_requests/${mr.iid}/test_reports.json`, { headers: { 'private-token': fx.server.root.token } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status_reason: 'This merge request does not have test reports' });
  });

  it('refuses strangers and a too-low role on a private project with a 404 or 403', async () => {
    const privateProject = await fx.createProject('private-reports', { visibility: 'private' });
    // with "Public pipelines" off, a Guest may not read pipelines
    await fx.call('PUT', `/projects/${privateProject.id}`, { body: { public_builds: false } });
    const guest = await fx.member(privateProject.id, 10);
    await fx.root.RepositoryFiles.create(privateProject.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    const pipeline = await eventually(async () => ((await fx.root.Pipelines.all(privateProject.id)) as Record<string, any>[])[0]);
    for (const suffix of ['test_report', 'test_report_summary']) {
      const path = `/projects/${privateProject.id}/pipelines/${pipeline.id}/${suffix}`;
      expect((await fx.call('GET', path, { token: stranger.token })).status).toBe(404);
      expect((await fx.call('GET', path, { token: guest.token })).status).toBe(403);
      const owner = await fx.call('GET', path);
      expect([owner.status, owner.body]).toEqual([200, expect.anything()]);
    }
  });
});
