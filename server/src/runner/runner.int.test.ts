/**
 * `tributary runner` as a real child process against a real server: a two-stage pipeline where
 * `consume` gets `build`'s artifact through `needs`, a failing job with `allow_failure`, and a
 * sleeping job canceled through the API while it runs. The runner only speaks HTTP to the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../test-support/database.js';
import { eventually } from '../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../test-support/repository-fixtures.js';
import { extractZip } from './archive.js';

const CI = `
stages: [build, test]
build:
  stage: build
  script:
    - mkdir -p out
    - echo "built from $CI_COMMIT_SHA" > out/result.txt
    - echo "the secret is $MY_SECRET"
  artifacts:
    paths: [out/]
flaky:
  stage: build
  allow_failure: true
  script:
    - echo about to fail
    - exit 7
sleeper:
  stage: build
  script:
    - echo sleeping-now
    - sleep 300
    - echo woke-up
consume:
  stage: test
  needs: [build]
  script:
    - cat out/result.txt
`;

describe(`tributary runner end to end (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let runner: ChildProcess | undefined;
  let output = '';
  const dir = mkdtempSync(join(tmpdir(), 'runner-e2e-'));

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 5 } });
  });
  afterAll(async () => {
    if (runner && runner.exitCode === null && runner.signalCode === null) {
      runner.kill('SIGTERM');
      await new Promise((resolve) => runner!.once('exit', resolve));
    }
    await fx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the pipeline: artifacts through needs, allow_failure, cancel, masked log', async () => {
    const project = await fx.createProject('runner-e2e');
    await fx.root.ProjectVariables.create(project.id, 'MY_SECRET', 'very-secret-value-42', { masked: true });
    const created = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { id: number; token: string };

    const bin = fileURLToPath(new URL('../../bin/tributary.js', import.meta.url));
    runner = spawn(process.execPath, [bin, 'runner', '--url', fx.server.url, '--concurrent', '3', '--builds-dir', join(dir, 'builds'), '--name', 'e2e'], {
      env: { ...process.env, TRIBUTARY_RUNNER_TOKEN: created.token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    runner.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    runner.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CI, 'Add CI');
    type Job = { id: number; name: string; status: string };
    const jobs = async () => (await fx.call<Job[]>('GET', `/projects/${project.id}/jobs?per_page=100`)).body;
    const job = async (name: string) => (await jobs()).find((j) => j.name === name)!;
    const trace = async (id: number) => (await fx.call('GET', `/projects/${project.id}/jobs/${id}/trace`)).raw.toString();

    // cancel the sleeper once its log shows it sleeping
    const sleeper = await eventually(async () => {
      const found = await job('sleeper');
      return found && found.status === 'running' && (await trace(found.id)).includes('sleeping-now') ? found : undefined;
    }, 60_000).catch(async (error: Error) => {
      throw new Error(`${error.message}\njobs: ${JSON.stringify(await jobs())}\nrunner output:\n${output}`);
    });
    expect((await fx.call('POST', `/projects/${project.id}/jobs/${sleeper.id}/cancel`)).status).toBe(201);

    const finished = await eventually(async () => {
      const all = await jobs();
      return all.length === 4 && all.every((j) => ['success', 'failed', 'canceled'].includes(j.status)) ? all : undefined;
    }, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}\nrunner output:\n${output}`);
    });
    const status = Object.fromEntries(finished.map((j) => [j.name, j.status]));
    expect(status).toEqual({ build: 'success', flaky: 'failed', sleeper: 'canceled', consume: 'success' });

    const pipelines = (await fx.call<{ status: string }[]>('GET', `/projects/${project.id}/pipelines`)).body;
    expect(pipelines.map((p) => p.status)).toEqual(['canceled']) // GitLab's composite status: a canceled job makes the pipeline canceled;

    const build = finished.find((j) => j.name === 'build')!;
    const buildLog = await trace(build.id);
    expect(buildLog).toContain('$ echo "the secret is $MY_SECRET"');
    expect(buildLog).toContain('the secret is [MASKED]');
    expect(buildLog).not.toContain('very-secret-value-42');
    expect(buildLog).toMatch(/section_start:\d+:step_script/);
    expect(await trace(finished.find((j) => j.name === 'consume')!.id)).toContain('built from ');
    expect(await trace(finished.find((j) => j.name === 'flaky')!.id)).toContain('ERROR: Job failed: exit code 7');
    expect(await trace(sleeper.id)).not.toContain('woke-up');
    expect(output).not.toContain(created.token);

    const artifact = await fx.call('GET', `/projects/${project.id}/jobs/${build.id}/artifacts`);
    expect(artifact.status).toBe(200);
    writeFileSync(join(dir, 'a.zip'), artifact.raw);
    const target = mkdtempSync(join(dir, 'x-'));
    await extractZip(join(dir, 'a.zip'), target);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(target, 'out/result.txt'), 'utf8')).toMatch(/^built from [0-9a-f]{40}\n$/);

    // SIGTERM: the runner stops polling and exits cleanly
    runner.kill('SIGTERM');
    const code = await new Promise((resolve) => runner!.once('exit', resolve));
    expect(code).toBe(0);
    expect(output).toContain('shutting down');
  }, 180_000);
});
