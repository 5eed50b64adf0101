/**
 * `tributary runner` as a real child process against a real server: a two-stage pipeline where
 * `consume` gets `build`'s artifact through `needs`, a failing job with `allow_failure`, and a
 * sleeping job canceled through the API while it runs. The runner only speaks HTTP to the server.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../test-support/database.js';
import { eventually } from '../test-support/eventually.js';
import { runnerHarness } from '../test-support/runner-process.js';
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
  const harness = runnerHarness('runner-e2e-');
  const { dir } = harness;

  it('runs the pipeline: artifacts through needs, allow_failure, cancel, masked log', async () => {
    const fx = harness.fx();
    const project = await fx.createProject('runner-e2e');
    await fx.root.ProjectVariables.create(project.id, 'MY_SECRET', 'very-secret-value-42', { masked: true });
    const created = await harness.startRunner(project.id, { concurrent: 3, name: 'e2e' });

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
      throw new Error(`${error.message}\njobs: ${JSON.stringify(await jobs())}\nrunner output:\n${harness.output()}`);
    });
    expect((await fx.call('POST', `/projects/${project.id}/jobs/${sleeper.id}/cancel`)).status).toBe(201);

    const finished = await eventually(async () => {
      const all = await jobs();
      return all.length === 4 && all.every((j) => ['success', 'failed', 'canceled'].includes(j.status)) ? all : undefined;
    }, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}\nrunner output:\n${harness.output()}`);
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
    expect(harness.output()).not.toContain(created.token);

    const artifact = await fx.call('GET', `/projects/${project.id}/jobs/${build.id}/artifacts`);
    expect(artifact.status).toBe(200);
    writeFileSync(join(dir, 'a.zip'), artifact.raw);
    const target = mkdtempSync(join(dir, 'x-'));
    await extractZip(join(dir, 'a.zip'), target);
    expect(readFileSync(join(target, 'out/result.txt'), 'utf8')).toMatch(/^built from [0-9a-f]{40}\n$/);

    // SIGTERM: the runner stops polling and exits cleanly
    expect(await harness.stop()).toBe(0);
    expect(harness.output()).toContain('shutting down');
  }, 180_000);
});
