/**
 * Pipelines created by real pushes (the stock git client over smart HTTP), and the engine
 * driven through the runner-facing service methods: transitions, retries, cancels, delayed
 * jobs, auto-cancel of redundant pipelines, and two transitions racing on one job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { eventually } from '../../test-support/merge-request-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';
import { gitCli, type GitCli } from '../../test-support/server.js';
import type { JobRow, PipelineRow } from './pipeline.js';
import { JobTransitionConflict } from './pipeline-engine.service.js';

describe(`pipelines: creation on push and the engine (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let cli: GitCli;
  let project: { id: number; path_with_namespace: string };
  const services = () => fx.server.app.services;

  const pipelinesOf = async (ref?: string) =>
    (await services().pipelinesRepository.listPipelines({ projectId: project.id, ref, orderBy: 'id', sort: 'desc', limit: 100, offset: 0 })).pipelines;
  const jobsOf = async (pipelineId: number) => {
    const jobs = await services().pipelinesRepository.latestJobs(pipelineId);
    return Object.fromEntries(jobs.map((job) => [job.name, job])) as Record<string, JobRow>;
  };
  const statuses = async (pipelineId: number) => Object.fromEntries(Object.entries(await jobsOf(pipelineId)).map(([name, job]) => [name, job.status]));
  const pipeline = async (id: number) => (await services().pipelinesRepository.pipelineById(id))!;

  /** Commits files on `branch` of the clone and pushes; resolves with the new pipeline of that push (or null after the job ran). */
  async function pushCommit(branch: string, files: Record<string, string>, message: string, pushArgs: string[] = []): Promise<string> {
    await cli.git(['checkout', '-B', branch], { cwd: 'repo' });
    for (const [path, content] of Object.entries(files)) {
      await cli.git(['hash-object', '-w', '--stdin'], { cwd: 'repo', input: content });
      const { writeFileSync, mkdirSync } = await import('node:fs');
      const { dirname, join } = await import('node:path');
      mkdirSync(dirname(join(cli.dir, 'repo', path)), { recursive: true });
      writeFileSync(join(cli.dir, 'repo', path), content);
      await cli.git(['add', path], { cwd: 'repo' });
    }
    await cli.git(['commit', '--allow-empty', '-m', message], { cwd: 'repo' });
    await cli.git(['push', ...pushArgs, 'origin', branch], { cwd: 'repo' });
    return (await cli.git(['rev-parse', 'HEAD'], { cwd: 'repo' })).stdout.trim();
  }

  /** The pipeline of `sha`, once the creation job has run. */
  const pipelineFor = (sha: string) => eventually(async () => (await pipelinesOf()).find((p) => p.sha === sha));

  /** Waits until the push's creation job is done (pipeline or not): the queue has no job left for it. */
  async function creationDone(): Promise<void> {
    await eventually(async () => {
      const { rows } = await fx.server.app.db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM background_jobs WHERE queue = 'pipelines.create_for_push' AND state <> 'done'`,
      );
      return rows[0]!.count === 0;
    });
  }

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('engine');
    cli = gitCli({ url: fx.server.url, username: 'root', password: fx.server.root.token });
    await cli.git(['clone', cli.repoUrl(project.path_with_namespace), 'repo']);
  });
  afterAll(async () => {
    await cli?.close();
    await fx?.close();
  });

  const CONFIG = [
    'stages: [build, test, deploy]',
    'build:\n  stage: build\n  script: make',
    'test:\n  stage: test\n  script: make test\n  retry: 1',
    'deploy:\n  stage: deploy\n  script: make deploy\n  when: manual',
    '',
  ].join('\n');

  let first: PipelineRow;

  it('creates the pipeline of a pushed branch: stages, jobs, needs and the first stage pending', async () => {
    const sha = await pushCommit('main', { '.gitlab-ci.yml': CONFIG }, 'Add CI');
    first = await pipelineFor(sha);
    expect(first).toMatchObject({ ref: 'main', tag: false, source: 'push', status: 'pending', iid: 1, yaml_errors: null });
    expect(await statuses(first.id)).toEqual({ build: 'pending', test: 'created', deploy: 'created' });
    const stages = await services().pipelinesRepository.stages(first.id);
    expect(stages.map((stage) => [stage.name, stage.status])).toEqual([
      ['build', 'pending'],
      ['test', 'created'],
      ['deploy', 'created'],
    ]);
  });

  it('advances through the runner-facing methods: assign, report, automatic retry, manual job', async () => {
    const engine = services().pipelineEngine;
    const jobs = await jobsOf(first.id);
    const running = await engine.assignJob(jobs.build!.id, { runnerId: 7, tokenHash: 'hash-build' });
    expect(running).toMatchObject({ status: 'running', runner_id: 7, token_hash: 'hash-build' });
    expect((await services().pipelinesRepository.findJobByTokenHash('hash-build'))?.id).toBe(jobs.build!.id);
    expect((await services().pipelinesRepository.pendingJobs(10)).map((job) => job.id)).not.toContain(jobs.build!.id);
    expect((await pipeline(first.id)).status).toBe('running');
    await engine.recordJobResult(jobs.build!.id, { status: 'success', exitCode: 0 });
    expect(await statuses(first.id)).toEqual({ build: 'success', test: 'pending', deploy: 'created' });

    // `retry: 1`: the first failure makes a new copy of the job, the second one stays failed
    const test = (await jobsOf(first.id)).test!;
    await engine.assignJob(test.id, { runnerId: 7, tokenHash: 'hash-test' });
    await engine.recordJobResult(test.id, { status: 'failed', failureReason: 'script_failure', exitCode: 1 });
    const copy = (await jobsOf(first.id)).test!;
    expect(copy.id).not.toBe(test.id);
    expect(copy.status).toBe('pending');
    expect((await services().pipelinesRepository.findJob(test.id))).toMatchObject({ retried: true, status: 'failed', failure_reason: 'script_failure', exit_code: 1 });
    await engine.assignJob(copy.id, { runnerId: 7, tokenHash: 'hash-test-2' });
    await engine.recordJobResult(copy.id, { status: 'failed', failureReason: 'script_failure', exitCode: 1 });
    expect(await statuses(first.id)).toEqual({ build: 'success', test: 'failed', deploy: 'skipped' });
    const failed = await pipeline(first.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.finished_at).not.toBeNull();
    expect(failed.duration).not.toBeNull();

    // retrying the pipeline retries the failed job and processes the skipped ones again
    await engine.retryPipeline(first.id, fx.server.root.id);
    expect(await statuses(first.id)).toEqual({ build: 'success', test: 'pending', deploy: 'created' });
    const again = (await jobsOf(first.id)).test!;
    await engine.assignJob(again.id, { runnerId: 7, tokenHash: 'hash-test-3' });
    await engine.recordJobResult(again.id, { status: 'success' });
    expect(await statuses(first.id)).toEqual({ build: 'success', test: 'success', deploy: 'manual' });
    // the manual job may fail (GitLab's default for `when: manual`): the pipeline passed
    expect((await pipeline(first.id)).status).toBe('success');
    const played = await engine.playJob((await jobsOf(first.id)).deploy!.id, fx.server.root.id, [{ key: 'TARGET', value: 'prod' }]);
    expect(played).toMatchObject({ status: 'pending', job_variables: [{ key: 'TARGET', value: 'prod' }] });
    expect((await pipeline(first.id)).status).toBe('running');
  });

  it('lets exactly one of two racing transitions on a job win', async () => {
    const engine = services().pipelineEngine;
    const deploy = (await jobsOf(first.id)).deploy!;
    const results = await Promise.allSettled([
      engine.assignJob(deploy.id, { runnerId: 1, tokenHash: 'race-1' }),
      engine.assignJob(deploy.id, { runnerId: 2, tokenHash: 'race-2' }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled' && r.value !== null);
    expect(won).toHaveLength(1);
    // the loser saw the job already running: no event from there
    expect(results.filter((r) => r.status === 'fulfilled' && r.value === null).length + results.filter((r) => r.status === 'rejected').length).toBe(1);
    const finishes = await Promise.allSettled([engine.recordJobResult(deploy.id, { status: 'success' }), engine.recordJobResult(deploy.id, { status: 'failed' })]);
    expect(finishes.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = finishes.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(JobTransitionConflict);
    expect(['success', 'failed']).toContain((await jobsOf(first.id)).deploy!.status);
  });

  it('stores a failed pipeline with GitLab’s yaml_errors for an invalid configuration', async () => {
    const sha = await pushCommit('broken', { '.gitlab-ci.yml': 'build:\n  stage: nowhere\n  script: x\n' }, 'Break CI');
    const broken = await pipelineFor(sha);
    expect(broken).toMatchObject({ status: 'failed', failure_reason: 'config_error', ref: 'broken' });
    expect(broken.yaml_errors).toContain('build job: chosen stage nowhere does not exist');
    expect(await statuses(broken.id)).toEqual({});
  });

  it('skips CI for [ci skip] and the ci.skip push option: a skipped pipeline without jobs', async () => {
    const skipped = await pipelineFor(await pushCommit('main', {}, 'Docs only [ci skip]'));
    expect(skipped.status).toBe('skipped');
    const optioned = await pipelineFor(await pushCommit('main', {}, 'Push option', ['-o', 'ci.skip']));
    expect(optioned.status).toBe('skipped');
    expect(await statuses(optioned.id)).toEqual({});
  });

  it('creates nothing for a branch without .gitlab-ci.yml, and a pipeline for a pushed tag', async () => {
    await cli.git(['checkout', '--orphan', 'bare'], { cwd: 'repo' });
    await cli.git(['rm', '-rf', '--cached', '.'], { cwd: 'repo' });
    await cli.git(['commit', '--allow-empty', '-m', 'Nothing'], { cwd: 'repo' });
    await cli.git(['push', 'origin', 'bare'], { cwd: 'repo' });
    await creationDone();
    expect(await pipelinesOf('bare')).toEqual([]);
    await cli.git(['checkout', '-f', 'main'], { cwd: 'repo' });
    await cli.git(['tag', 'v1.0'], { cwd: 'repo' });
    await cli.git(['push', 'origin', 'v1.0'], { cwd: 'repo' });
    const tagged = await eventually(async () => (await pipelinesOf('v1.0'))[0]);
    expect(tagged).toMatchObject({ tag: true, source: 'push' });
  });

  it('cancels older pipelines of a branch on a new push while nothing non-interruptible started', async () => {
    const config = 'build:\n  script: x\n  interruptible: true\nlint:\n  script: y\n';
    const older = await pipelineFor(await pushCommit('feature', { '.gitlab-ci.yml': config }, 'One'));
    const engine = services().pipelineEngine;
    await engine.assignJob((await jobsOf(older.id)).build!.id, { runnerId: 3, tokenHash: 'interruptible' });
    const newer = await pipelineFor(await pushCommit('feature', {}, 'Two'));
    expect(newer.status).toBe('pending');
    // canceled in the new pipeline's transaction; a running interruptible job with a runner is
    // asked to stop (the pipeline is canceling until the runner's report ends it)
    expect((await pipeline(older.id)).status).toBe('canceling');
    expect(await statuses(older.id)).toEqual({ build: 'canceling', lint: 'canceled' });
    await engine.recordJobResult((await jobsOf(older.id)).build!.id, { status: 'success' });
    expect((await jobsOf(older.id)).build!.status).toBe('canceled');
    expect((await pipeline(older.id)).status).toBe('canceled');

    // a started job that is not interruptible keeps the older pipeline
    await engine.assignJob((await jobsOf(newer.id)).lint!.id, { runnerId: 3, tokenHash: 'not-interruptible' });
    const newest = await pipelineFor(await pushCommit('feature', {}, 'Three'));
    expect(newest.status).toBe('pending');
    expect((await pipeline(newer.id)).status).toBe('running');
  });

  it('schedules delayed jobs and enqueues them when their time comes', async () => {
    const config = 'later:\n  script: x\n  when: delayed\n  start_in: 1 second\n';
    const delayed = await pipelineFor(await pushCommit('delayed', { '.gitlab-ci.yml': config }, 'Delayed'));
    const job = (await jobsOf(delayed.id)).later!;
    expect(job.status).toBe('scheduled');
    expect(job.scheduled_at).not.toBeNull();
    expect(delayed.status).toBe('scheduled');
    // the queue job runs at scheduled_at (the server's worker picks it up)
    await eventually(async () => (await jobsOf(delayed.id)).later!.status === 'pending');
    expect((await pipeline(delayed.id)).status).toBe('pending');
  });
});
