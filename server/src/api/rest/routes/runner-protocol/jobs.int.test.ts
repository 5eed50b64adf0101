/**
 * The job side of GitLab Runner's protocol, replayed with the requests the stock gitlab-runner
 * sends (network/gitlab.go: JobRequest and UpdateJobRequest JSON, RUNNER-TOKEN / JOB-TOKEN
 * headers): long-polled job requests woken by a job becoming pending, GitLab's job payload,
 * state updates with Job-Status, cancelation, dead tokens, a job handed out exactly once under
 * concurrent requests, and the stuck-jobs sweep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { jsonHeaders, RUNNER_INFO, USER_AGENT } from './gitlab-runner-wire.js';

/** gitlab-runner's JSON requests (RequestJob, UpdateJob) decode their answers. */
const HEADERS = jsonHeaders({ accept: true });

describe(`runner protocol: jobs (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  const services = () => fx.server.app.services;

  /** gitlab-runner's POST /jobs/request (RequestJob): JSON body and the RUNNER-TOKEN header. */
  const requestJob = (token: string, lastUpdate = '') =>
    fetch(`${fx.server.url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { ...HEADERS, 'RUNNER-TOKEN': token, 'X-Request-Id': 'req-1' },
      body: JSON.stringify({ info: RUNNER_INFO, token, system_id: 's_0123456789ab', last_update: lastUpdate }),
    });

  /** gitlab-runner's PUT /jobs/:id (UpdateJob): UpdateJobRequest JSON and the JOB-TOKEN header. */
  const updateJob = (id: number, token: string, body: Record<string, unknown>) =>
    fetch(`${fx.server.url}/api/v4/jobs/${id}`, {
      method: 'PUT',
      headers: { ...HEADERS, 'JOB-TOKEN': token },
      body: JSON.stringify({ info: RUNNER_INFO, token, ...body }),
    });

  async function projectRunner(projectId: number, options: { tagList?: string[]; runUntagged?: boolean } = {}): Promise<{ id: number; token: string }> {
    const created = (await fx.root.Users.createCIRunner('project_type', { projectId, runUntagged: options.runUntagged ?? true, tagList: options.tagList })) as { id: number; token: string };
    return created;
  }

  /** A project whose .gitlab-ci.yml is committed (a push): resolves once its first jobs are pending. */
  async function projectWithCi(name: string, config: string): Promise<{ id: number; path_with_namespace: string }> {
    const project = await fx.createProject(name);
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', config, 'Add CI');
    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).length > 0);
    return project;
  }

  const jobStatus = async (id: number) => (await services().pipelinesRepository.findJob(id))!.status;

  beforeAll(async () => {
    // A request with no job to hand out is held this long before its 204: short, so that the
    // tests expecting a 204 do not wait; the wake-up test below holds for long on a server of its own.
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
  });
  afterAll(() => fx?.close());

  it('refuses a missing token (400), an unknown one and a user’s token (403)', async () => {
    const missing = await fetch(`${fx.server.url}/api/v4/jobs/request`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ info: RUNNER_INFO }) });
    expect(missing.status).toBe(400);
    const unknown = await requestJob('glrt-not-a-runner-token');
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toEqual({ message: '403 Forbidden' });
    const user = await fx.server.createUser();
    expect((await requestJob(user.token)).status).toBe(403);
  });

  it('answers 204 with X-GitLab-Last-Update when no job waits', async () => {
    const project = await fx.createProject('no-ci');
    const runner = await projectRunner(project.id);
    const response = await requestJob(runner.token);
    expect(response.status).toBe(204);
    expect(response.headers.get('x-gitlab-last-update')).toMatch(/^[0-9a-f]+$/);
    // the runner's contact and what it reported are recorded
    const shown = (await fx.root.Runners.show(runner.id)) as Record<string, unknown>;
    expect(shown).toMatchObject({ version: '17.5.0', revision: '66269445', platform: 'linux', architecture: 'amd64' });
    expect(shown.contacted_at).not.toBeNull();
  });

  it('hands out a pending job with GitLab’s payload and starts it', async () => {
    const project = await projectWithCi(
      'payload',
      [
        'variables:\n  GLOBAL_VAR: global',
        'build:',
        '  image: ruby:3.3',
        '  services: [postgres:16]',
        '  before_script: [echo before]',
        '  script: [echo build, make]',
        '  after_script: [echo after]',
        '  timeout: 30m',
        '  artifacts:\n    paths: [out/]\n    expire_in: 1 week',
        '  cache:\n    key: deps\n    paths: [vendor/]',
        '',
      ].join('\n'),
    );
    const runner = await projectRunner(project.id);
    const response = await requestJob(runner.token);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-gitlab-last-update')).toBeTruthy();
    const job = (await response.json()) as Record<string, any>;
    expect(job.token).toMatch(/^glcbt-/);
    expect(Object.keys(job).sort()).toEqual(['allow_git_fetch', 'artifacts', 'cache', 'credentials', 'dependencies', 'features', 'git_info', 'id', 'image', 'job_info', 'runner_info', 'services', 'steps', 'token', 'variables'].sort());
    expect(job.job_info).toMatchObject({ id: job.id, name: 'build', stage: 'test', project_id: project.id, project_name: 'payload' });
    const host = new URL(fx.server.url).host;
    expect(job.git_info).toMatchObject({
      repo_url: `http://gitlab-ci-token:${job.token}@${host}/${project.path_with_namespace}.git`,
      ref: 'main',
      ref_type: 'branch',
      depth: 20,
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      before_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      refspecs: [expect.stringMatching(/^\+[0-9a-f]{40}:refs\/pipelines\/\d+$/), '+refs/heads/main:refs/remotes/origin/main'],
      protected: true,
    });
    expect(job.runner_info).toEqual({ timeout: 1800, runner_session_url: null });
    expect(job.steps).toEqual([
      { name: 'script', script: ['echo before', 'echo build', 'make'], timeout: 1800, when: 'on_success', allow_failure: false },
      { name: 'after_script', script: ['echo after'], timeout: 1800, when: 'always', allow_failure: true },
    ]);
    expect(job.image).toMatchObject({ name: 'ruby:3.3' });
    expect(job.services).toEqual([expect.objectContaining({ name: 'postgres:16' })]);
    expect(job.artifacts).toEqual([expect.objectContaining({ paths: ['out/'], artifact_type: 'archive', artifact_format: 'zip', expire_in: '1 week', when: 'on_success' })]);
    expect(job.cache).toEqual([expect.objectContaining({ key: 'deps', paths: ['vendor/'], policy: 'pull-push' })]);
    const vars = Object.fromEntries((job.variables as { key: string }[]).map((v) => [v.key, v]));
    expect(vars.CI_JOB_TOKEN).toEqual({ key: 'CI_JOB_TOKEN', value: job.token, public: false, masked: true });
    expect(vars.CI_REPOSITORY_URL!).toMatchObject({ value: job.git_info.repo_url });
    expect(vars.CI_JOB_ID).toMatchObject({ value: String(job.id), public: true });
    expect(vars.CI_SERVER_URL).toMatchObject({ value: fx.server.url });
    expect(vars.CI_PROJECT_PATH).toMatchObject({ value: project.path_with_namespace });
    expect(vars.CI_COMMIT_REF_NAME).toMatchObject({ value: 'main' });
    expect(vars.GLOBAL_VAR).toMatchObject({ value: 'global' });
    expect(vars.GITLAB_USER_LOGIN).toMatchObject({ value: 'root' });
    expect(job.features.failure_reasons).toContain('script_failure');
    // started by the engine, with this runner
    const stored = (await services().pipelinesRepository.findJob(job.id))!;
    expect(stored).toMatchObject({ status: 'running', runner_id: runner.id });
    expect(stored.token_hash).not.toContain(job.token);
    // nothing else to hand out
    expect((await requestJob(runner.token)).status).toBe(204);
  });

  it('takes state updates: running is a keep-alive, success ends the job, then its token is dead', async () => {
    const project = await projectWithCi('updates', 'one:\n  script: [true]\n');
    const runner = await projectRunner(project.id);
    const job = (await (await requestJob(runner.token)).json()) as { id: number; token: string };
    const alive = await updateJob(job.id, job.token, { state: 'running', output: { checksum: 'crc32:00000000', bytesize: 0 } });
    expect(alive.status).toBe(200);
    expect(alive.headers.get('job-status')).toBe('running');
    expect(alive.headers.get('x-gitlab-trace-update-interval')).toBeTruthy();
    expect(await alive.text()).toBe('200');
    const wrong = await updateJob(job.id, 'glcbt-wrong', { state: 'success' });
    expect(wrong.status).toBe(403);
    const other = await updateJob(job.id + 100000, job.token, { state: 'success' });
    expect(other.status).toBe(403);
    const bad = await updateJob(job.id, job.token, { state: 'exploded' });
    expect(bad.status).toBe(400);
    expect(await jobStatus(job.id)).toBe('running');
    const done = await updateJob(job.id, job.token, { state: 'success', exit_code: 0, output: { checksum: 'crc32:00000000', bytesize: 0 } });
    expect(done.status).toBe(200);
    expect(done.headers.get('job-status')).toBe('success');
    expect(await jobStatus(job.id)).toBe('success');
    const dead = await updateJob(job.id, job.token, { state: 'running' });
    expect(dead.status).toBe(403);
    expect(dead.headers.get('job-status')).toBe('success');
  });

  it('records a failure with its reason and exit code', async () => {
    const project = await projectWithCi('failing', 'fails:\n  script: [false]\n');
    const runner = await projectRunner(project.id);
    const job = (await (await requestJob(runner.token)).json()) as { id: number; token: string };
    const response = await updateJob(job.id, job.token, { state: 'failed', failure_reason: 'script_failure', exit_code: 1 });
    expect(response.status).toBe(200);
    expect(response.headers.get('job-status')).toBe('failed');
    expect(await services().pipelinesRepository.findJob(job.id)).toMatchObject({ status: 'failed', failure_reason: 'script_failure', exit_code: 1 });
  });

  it('tells the runner to stop a job being canceled (Job-Status: canceling), which then ends canceled', async () => {
    const project = await projectWithCi('canceling', 'long:\n  script: [sleep 1000]\n');
    const runner = await projectRunner(project.id);
    const job = (await (await requestJob(runner.token)).json()) as { id: number; token: string };
    await fx.root.Jobs.cancel(project.id, job.id);
    const response = await updateJob(job.id, job.token, { state: 'running' });
    expect(response.status).toBe(200);
    expect(response.headers.get('job-status')).toBe('canceling');
    const end = await updateJob(job.id, job.token, { state: 'failed', failure_reason: 'job_canceled' });
    expect(end.status).toBe(200);
    expect(end.headers.get('job-status')).toBe('canceled');
  });

  it('hands each job to exactly one runner under many concurrent requests', async () => {
    const project = await projectWithCi('race', 'many:\n  parallel: 6\n  script: [true]\n');
    const runners = [await projectRunner(project.id), await projectRunner(project.id)];
    const responses = await Promise.all(Array.from({ length: 16 }, (_, i) => requestJob(runners[i % 2]!.token)));
    const picked = await Promise.all(responses.filter((r) => r.status === 201).map(async (r) => ((await r.json()) as { id: number }).id));
    expect(responses.every((r) => r.status === 201 || r.status === 204)).toBe(true);
    expect(picked).toHaveLength(6);
    expect(new Set(picked).size).toBe(6);
    for (const id of picked) expect(await jobStatus(id)).toBe('running');
  });

  it('does not hand a job to a runner without its tags; it stays pending', async () => {
    const project = await projectWithCi('tagged', 'gpu:\n  tags: [gpu]\n  script: [true]\n');
    const runner = await projectRunner(project.id, { tagList: ['docker'] });
    expect((await requestJob(runner.token)).status).toBe(204);
    const [job] = (await fx.root.Jobs.all(project.id)) as { id: number; status: string }[];
    expect(job!.status).toBe('pending');
    const gpu = await projectRunner(project.id, { tagList: ['gpu'] });
    expect((await requestJob(gpu.token)).status).toBe(201);
  });

  it('fails a running job whose runner went silent (stuck_or_timeout_failure) or was deleted (runner_system_failure)', async () => {
    const project = await projectWithCi('stuck', 'a:\n  script: [true]\nb:\n  script: [true]\n');
    const runner = await projectRunner(project.id);
    const first = (await (await requestJob(runner.token)).json()) as { id: number; token: string };
    await fx.server.app.db.query(`UPDATE ci_builds SET updated_at = now() - interval '2 hours' WHERE id = $1`, [first.id]);
    expect(await services().stuckJobs.sweep()).toEqual([first.id]);
    expect(await services().pipelinesRepository.findJob(first.id)).toMatchObject({ status: 'failed', failure_reason: 'stuck_or_timeout_failure' });
    expect((await updateJob(first.id, first.token, { state: 'running' })).status).toBe(403);

    const other = await projectRunner(project.id);
    const second = (await (await requestJob(other.token)).json()) as { id: number };
    await fx.root.Runners.remove({ runnerId: other.id });
    expect(await services().stuckJobs.sweep()).toEqual([second.id]);
    expect(await services().pipelinesRepository.findJob(second.id)).toMatchObject({ status: 'failed', failure_reason: 'runner_system_failure' });
  });

  /** gitlab-runner's PATCH /jobs/:id/trace (network/trace.go): raw bytes, Content-Range start-end without a unit. */
  const patchTrace = (id: number, token: string, start: number, data: string, range?: string) =>
    fetch(`${fx.server.url}/api/v4/jobs/${id}/trace?debug_trace=false`, {
      method: 'PATCH',
      headers: { 'User-Agent': USER_AGENT, 'JOB-TOKEN': token, 'Content-Type': 'text/plain', ...(range === '' ? {} : { 'Content-Range': range ?? `${start}-${start + Buffer.byteLength(data) - 1}` }) },
      body: data,
    });

  it('takes the log in chunks by offset (202 with Range, 416 with the stored size), masks secrets, and serves it as text', async () => {
    const project = await projectWithCi('logs', 'logged:\n  script: [echo $SECRET_TOKEN]\n');
    await fx.root.ProjectVariables.create(project.id, 'SECRET_TOKEN', 'Sup3rSecretValue', { masked: true });
    const runner = await projectRunner(project.id);
    const job = (await (await requestJob(runner.token)).json()) as { id: number; token: string; variables: { key: string; masked: boolean }[] };
    expect(job.variables.find((v) => v.key === 'SECRET_TOKEN')).toMatchObject({ masked: true });

    const first = await patchTrace(job.id, job.token, 0, 'hello Sup3rSec');
    expect(first.status).toBe(202);
    expect(first.headers.get('range')).toBe('0-14');
    expect(first.headers.get('job-status')).toBe('running');
    expect(first.headers.get('x-gitlab-trace-update-interval')).toBe('60');
    const again = await patchTrace(job.id, job.token, 0, 'hello');
    expect(again.status).toBe(416);
    expect(again.headers.get('range')).toBe('0-14');
    const gap = await patchTrace(job.id, job.token, 20, 'later');
    expect(gap.status).toBe(416);
    const missing = await patchTrace(job.id, job.token, 14, 'x', '');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ message: '400 Missing header Content-Range' });
    expect((await patchTrace(job.id, 'glcbt-wrong', 14, 'x')).status).toBe(403);
    const second = await patchTrace(job.id, job.token, 14, 'retValue done\n');
    expect(second.status).toBe(202);
    expect(second.headers.get('range')).toBe('0-28');

    const reporter = await fx.member(project.id, 20);
    const read = await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/trace`, { token: reporter.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(read.body).toBe('hello [MASKED] done\n');
    const stranger = await fx.server.createUser();
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/trace`, { token: stranger.token })).status).toBe(404);

    expect((await updateJob(job.id, job.token, { state: 'success' })).status).toBe(200);
    const stored = await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/trace`, { token: reporter.token });
    expect(stored.body).toBe('hello [MASKED] done\n');
    const late = await patchTrace(job.id, job.token, 28, 'more');
    expect(late.status).toBe(403);
    expect(late.headers.get('job-status')).toBe('success');
  });
});

describe(`runner protocol: a held jobs request (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;

  beforeAll(async () => {
    // Held far longer than a push takes to create its pipeline: the answer can only come early
    // from the wake-up.
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 50 } });
  });
  afterAll(() => fx?.close());

  it('wakes when a job becomes pending', async () => {
    const project = await fx.createProject('wake');
    const runner = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { id: number; token: string };
    const request = (lastUpdate: string) =>
      fetch(`${fx.server.url}/api/v4/jobs/request`, {
        method: 'POST',
        headers: { ...HEADERS, 'RUNNER-TOKEN': runner.token },
        body: JSON.stringify({ info: RUNNER_INFO, token: runner.token, system_id: 's_0123456789ab', last_update: lastUpdate }),
      });
    // a request with an old value is answered at once; sending back its X-GitLab-Last-Update holds the next
    const first = await request('an-old-value');
    expect(first.status).toBe(204);
    const held = request(first.headers.get('x-gitlab-last-update')!);
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', 'wake:\n  script: [true]\n', 'Add CI');
    const response = await held;
    expect(response.status).toBe(201);
    expect(((await response.json()) as { job_info: { name: string } }).job_info.name).toBe('wake');
  });
});
