/**
 * The stock gitlab-runner against Tributary, request for request: every call is built as
 * gitlab-runner 17.x writes it (gitlab-runner-wire.ts: its headers, JSON field order, Go's
 * canonical header names, its chunked multipart upload) and every answer is checked for what the
 * runner reads from it. One runner, one machine (`system_id`), a whole pipeline: verify, job
 * requests with `last_update`, log patches with a 416 recovery, a cancel seen through
 * `Job-Status: canceling`, artifacts up (zip archive, a gzip report, Workhorse's metadata part)
 * and down (a dependency's archive), success and failure with `failure_reason` and `exit_code`,
 * the machine listed among the runner's managers, and unregistering.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { downloadArtifacts, gitlabRunner, patchTrace, updateJob, uploadArtifacts, type WireResponse } from './gitlab-runner-wire.js';
import { zipOf } from '../../../../test-support/zip.js';

const CONFIG = [
  'stages: [build, test]',
  'build:\n  stage: build\n  script: [make]\n  artifacts:\n    paths: [out/]\n    expire_in: 1 week\n    reports:\n      junit: junit.xml',
  'long:\n  stage: build\n  script: [sleep 1000]\n  allow_failure: true',
  'test:\n  stage: test\n  needs: [build]\n  script: [make test]',
  '',
].join('\n');

interface JobPayload {
  id: number;
  token: string;
  job_info: { name: string };
  dependencies: { id: number; name: string; token: string; artifacts_file: { filename: string; size: number } }[];
  artifacts: { artifact_type: string; artifact_format: string; name: string }[];
}

describe(`gitlab-runner 17.x replayed (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number };
  let runnerId: number;
  let runner: ReturnType<typeof gitlabRunner>;
  const jobs = new Map<string, JobPayload>();
  const SYSTEM_ID = 's_6a1e2f3b4c5d';

  /** network/client.go isResponseApplicationJSON: a decoded answer must be application/json or the runner treats it as an error. */
  const expectJson = (response: WireResponse) => expect(response.headers['content-type']).toMatch(/^application\/json/);
  const jobStatus = async (id: number) => (await fx.server.app.services.pipelinesRepository.findJob(id))!.status;

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 30 } });
    project = await fx.createProject('replayed');
    const created = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { id: number; token: string };
    runnerId = created.id;
    runner = gitlabRunner(fx.server.url, created.token, SYSTEM_ID);
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).length === 2);
  });
  afterAll(() => fx?.close());

  it('verifies the runner (VerifyRunner decodes {id, token, token_expires_at}) and records its machine', async () => {
    const verified = await runner.verify();
    // VerifyRunner: 200 is "is alive" (403 would be "is removed" and the runner stops using the token)
    expect(verified.status).toBe(200);
    expectJson(verified);
    expect(verified.json()).toEqual({ id: runnerId, token: expect.stringMatching(/^glrt-/), token_expires_at: null });
    const managers = await fx.call('GET', `/runners/${runnerId}/managers`);
    expect(managers.body).toEqual([expect.objectContaining({ system_id: SYSTEM_ID, status: 'online' })]);
  });

  it('hands out both pending jobs, each request answered at once (RequestJob: 201, application/json)', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await runner.requestJob();
      expect(response.status).toBe(201);
      expectJson(response);
      // the next request must look at the queue again, not wait: the value it sends back is not current
      expect(response.headers['x-gitlab-last-update']).toBeTruthy();
      const job = response.json<JobPayload>();
      jobs.set(job.job_info.name, job);
    }
    expect([...jobs.keys()].sort()).toEqual(['build', 'long']);
    // each `artifacts` entry becomes one UploadRawArtifacts call with its artifact_type and artifact_format
    expect(jobs.get('build')!.artifacts).toEqual(
      expect.arrayContaining([expect.objectContaining({ artifact_type: 'archive', artifact_format: 'zip' }), expect.objectContaining({ artifact_type: 'junit', artifact_format: 'gzip' })]),
    );
    // the machine's report is kept on its manager: gitlab-runner's info and the executor's type
    const { rows } = await fx.server.app.db.query<Record<string, unknown>>('SELECT system_xid, version, revision, platform, architecture, executor_type FROM ci_runner_machines WHERE runner_id = $1', [runnerId]);
    expect(rows).toEqual([{ system_xid: SYSTEM_ID, version: '17.5.0', revision: '66269445', platform: 'linux', architecture: 'amd64', executor_type: 'shell' }]);
    // the machine that took the jobs is busy (GitLab's job_execution_status)
    expect((await fx.call('GET', `/runners/${runnerId}/managers`)).body).toEqual([expect.objectContaining({ system_id: SYSTEM_ID, job_execution_status: 'active' })]);
  });

  it('answers 204 with X-GitLab-Last-Update when nothing is left; sending it back holds the request until a job is pending', async () => {
    const none = await runner.requestJob();
    // RequestJob: 204 is "nothing", the runner keeps polling with the X-GitLab-Last-Update it kept (client.setLastUpdate)
    expect(none.status).toBe(204);
    const value = none.headers['x-gitlab-last-update'];
    expect(value).toBeTruthy();
    expect(runner.lastUpdate).toBe(value);
    // held (GitLab Workhorse's long polling) until `build` succeeds and `test` becomes pending
    const held = runner.requestJob();

    const build = jobs.get('build')!;
    const log = Buffer.from('\u001b[0KRunning with gitlab-runner 17.5.0\n$ make\nbuilt\n');
    // PatchTrace: 202 with Range (the runner's new offset), Job-Status and the update interval
    const first = await patchTrace(fx.server.url, build, 0, log.subarray(0, 20));
    expect(first.status).toBe(202);
    expect(first.headers).toMatchObject({ range: '0-20', 'job-status': 'running', 'x-gitlab-trace-update-interval': '60' });
    // a chunk past the stored end: 416 and the Range the runner resumes from (TracePatchResponse.NewOffset)
    const ahead = await patchTrace(fx.server.url, build, 30, log.subarray(30));
    expect(ahead.status).toBe(416);
    expect(ahead.headers.range).toBe('0-20');
    const resumed = await patchTrace(fx.server.url, build, 20, log.subarray(20));
    expect(resumed.status).toBe(202);
    expect(resumed.headers.range).toBe(`0-${log.length}`);

    // UploadRawArtifacts: the archive (with the metadata part GitLab Workhorse adds) and a gzip report
    const archive = await zipOf({ 'out/result.txt': 'built\n' });
    const uploaded = await uploadArtifacts(fx.server.url, build, { baseName: 'artifacts.zip', data: archive }, { format: 'zip', type: 'archive', expireIn: '1 week' }, [
      { field: 'metadata', filename: 'metadata.gz', data: gzipSync(Buffer.from('GitLab Build Artifacts Metadata 0.0.2\n')) },
    ]);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.toString()).toBe('201');
    const report = gzipSync(Buffer.from('<testsuites><testsuite name="unit" tests="1"/></testsuites>\n'));
    const reported = await uploadArtifacts(fx.server.url, build, { baseName: 'junit.xml.gz', data: report }, { format: 'gzip', type: 'junit' });
    expect(reported.status).toBe(201);
    const { rows } = await fx.server.app.db.query<Record<string, unknown>>('SELECT file_type, file_format, filename, size FROM ci_job_artifacts WHERE job_id = $1 ORDER BY file_type', [build.id]);
    expect(rows.map((row) => ({ ...row, size: Number(row.size) }))).toEqual([
      { file_type: 'archive', file_format: 'zip', filename: 'artifacts.zip', size: archive.length },
      { file_type: 'junit', file_format: 'gzip', filename: 'junit.xml.gz', size: report.length },
    ]);
    // a bad format is GitLab's 400 and stores nothing
    const tarball = await uploadArtifacts(fx.server.url, build, { baseName: 'x.tar', data: archive }, { format: 'tarball', type: 'archive' });
    expect(tarball.status).toBe(400);
    expect(tarball.json()).toEqual({ message: '400 (Bad request) "artifact_format" does not have a valid value' });
    expect((await fx.server.app.db.query('SELECT 1 FROM ci_job_artifacts WHERE job_id = $1', [build.id])).rows).toHaveLength(2);

    // UpdateJob success: 200, body "200", Job-Status and X-GitLab-Trace-Update-Interval (createUpdateJobResult)
    const done = await updateJob(fx.server.url, build, { state: 'success', log });
    expect(done.status).toBe(200);
    expect(done.body.toString()).toBe('200');
    expect(done.headers['job-status']).toBe('success');
    expect(Number(done.headers['x-gitlab-trace-update-interval'])).toBeGreaterThan(0);
    // the token died with the job: the runner aborts on 403
    const late = await patchTrace(fx.server.url, build, log.length, Buffer.from('late'));
    expect(late.status).toBe(403);
    expect(late.headers['job-status']).toBe('success');

    const woken = await held;
    expect(woken.status).toBe(201);
    const test = woken.json<JobPayload>();
    expect(test.job_info.name).toBe('test');
    jobs.set('test', test);
  });

  it('cancels a job through Job-Status: canceling on a log patch, then records it canceled', async () => {
    const long = jobs.get('long')!;
    await fx.root.Jobs.cancel(project.id, long.id);
    // a runner busy with one long job asks for no other: its job's calls keep it online (GitLab's heartbeat_runner)
    await fx.server.app.db.query(`UPDATE ci_runners SET contacted_at = now() - interval '3 hours' WHERE id = $1`, [runnerId]);
    await fx.server.app.db.query(`UPDATE ci_runner_machines SET contacted_at = now() - interval '3 hours' WHERE runner_id = $1`, [runnerId]);
    expect(await fx.root.Runners.show(runnerId)).toMatchObject({ status: 'offline' });
    const patched = await patchTrace(fx.server.url, long, 0, Buffer.from('$ sleep 1000\n'));
    expect(patched.status).toBe(202);
    expect(await fx.root.Runners.show(runnerId)).toMatchObject({ status: 'online' });
    expect((await fx.call('GET', `/runners/${runnerId}/managers`)).body).toEqual([expect.objectContaining({ status: 'online' })]);
    // TracePatchResponse.IsCanceled: the runner stops the job gracefully
    expect(patched.headers['job-status']).toBe('canceling');
    const ended = await updateJob(fx.server.url, long, { state: 'failed', failureReason: 'job_canceled', log: Buffer.from('$ sleep 1000\n') });
    expect(ended.status).toBe(200);
    expect(ended.headers['job-status']).toBe('canceled');
    expect(await jobStatus(long.id)).toBe('canceled');
  });

  it('downloads the dependency’s archive with the token the payload gives it (DownloadArtifacts)', async () => {
    const build = jobs.get('build')!;
    const test = jobs.get('test')!;
    expect(test.dependencies).toEqual([{ id: build.id, name: 'build', token: test.token, artifacts_file: { filename: 'artifacts.zip', size: expect.any(Number) } }]);
    const dependency = { id: test.dependencies[0]!.id, token: test.dependencies[0]!.token };
    for (const direct of [undefined, true, false]) {
      const download = await downloadArtifacts(fx.server.url, dependency, direct);
      expect(download.status).toBe(200);
      expect(download.body.length).toBe(test.dependencies[0]!.artifacts_file.size);
      expect(download.body.subarray(0, 2).toString()).toBe('PK');
    }
    // another job's dead token: 403, which the runner reports as DownloadForbidden
    expect((await downloadArtifacts(fx.server.url, { id: build.id, token: build.token })).status).toBe(403);
  });

  it('records a script failure with its exit code (failure_reason, exit_code)', async () => {
    const test = jobs.get('test')!;
    const failed = await updateJob(fx.server.url, test, { state: 'failed', failureReason: 'script_failure', exitCode: 3, log: Buffer.from('exit 3\n') });
    expect(failed.status).toBe(200);
    expect(failed.headers['job-status']).toBe('failed');
    expect(await fx.server.app.services.pipelinesRepository.findJob(test.id)).toMatchObject({ status: 'failed', failure_reason: 'script_failure', exit_code: 3 });
    // a job no longer processing: GitLab's 403 with Job-Status, which the runner takes as "abort"
    const again = await updateJob(fx.server.url, test, { state: 'running' });
    expect(again.status).toBe(403);
    expect(again.headers['job-status']).toBe('failed');
    expect(again.json()).toEqual({ message: '403 Forbidden - Job is not processing on runner' });
    expect((await fx.call('GET', `/runners/${runnerId}/managers`)).body).toEqual([expect.objectContaining({ system_id: SYSTEM_ID, job_execution_status: 'idle' })]);
  });

  it('rotates its token (ResetToken) and unregisters (UnregisterRunner: 204, then 403)', async () => {
    const reset = await runner.resetToken();
    expect(reset.status).toBe(201);
    expectJson(reset);
    const { token } = reset.json<{ token: string; token_expires_at: null }>();
    expect(reset.json()).toEqual({ token: expect.stringMatching(/^glrt-/), token_expires_at: null });
    expect((await runner.verify()).status).toBe(403);
    const renewed = gitlabRunner(fx.server.url, token, SYSTEM_ID);
    expect((await renewed.verify()).status).toBe(200);
    expect((await renewed.unregister()).status).toBe(204);
    expect((await renewed.verify()).status).toBe(403);
  });
});
