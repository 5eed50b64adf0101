/**
 * `needs: [{project: …, job: build, ref: main}]` (GitLab's cross-project artifacts) with the real
 * `tributary runner`: the latest successful `build` of another project's `main` reaches the job
 * as a dependency, which the runner downloads with the job's own token — but only while the
 * job's user may read that project's jobs and that project's job token allowlist names the
 * job's project. Otherwise GitLab fails the job before it runs with `missing_dependency_failure`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../test-support/database.js';
import { eventually } from '../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../test-support/server.js';

const LIB_CI = `build:
  script:
    - mkdir -p out
    - echo "library built at $CI_COMMIT_SHORT_SHA" > out/lib.txt
  artifacts:
    paths: [out/]
`;
const appCi = (libPath: string, attempt: number) => `use:
  script:
    - echo attempt ${attempt}
    - cat out/lib.txt
  needs:
    - project: ${libPath}
      job: build
      ref: main
      artifacts: true
`;

type Job = { id: number; name: string; status: string; failure_reason?: string; pipeline: { id: number } };

describe(`tributary runner: needs:project artifacts (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let runner: ChildProcess | undefined;
  let output = '';
  const dir = mkdtempSync(join(tmpdir(), 'runner-cross-project-'));

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

  it('hands over the other project’s latest successful build only when its allowlist and the job’s user allow it', async () => {
    const lib = await fx.createProject('cross-lib');
    const app = await fx.createProject('cross-app');
    const created = (await fx.root.Users.createCIRunner('instance_type', { runUntagged: true })) as { token: string };
    const bin = fileURLToPath(new URL('../../bin/tributary.js', import.meta.url));
    runner = spawn(process.execPath, [bin, 'runner', '--url', fx.server.url, '--concurrent', '2', '--builds-dir', join(dir, 'builds'), '--name', 'cross'], {
      env: { ...process.env, TRIBUTARY_RUNNER_TOKEN: created.token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    runner.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    runner.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const withOutput = (error: Error) => {
      throw new Error(`${error.message}\nrunner output:\n${output}`);
    };

    const jobsOf = async (projectId: number) => (await fx.call<Job[]>('GET', `/projects/${projectId}/jobs?per_page=100`)).body;
    const trace = async (projectId: number, id: number) => (await fx.call('GET', `/projects/${projectId}/jobs/${id}/trace`)).raw.toString();
    /** Commits the app's CI as `user` and waits for that new pipeline's `use` job to finish. */
    let attempt = 0;
    const runUse = async (user: TestUser): Promise<Job> => {
      attempt += 1;
      const seen = new Set((await jobsOf(app.id)).map((job) => job.id));
      const client = gitbeakerClient(fx.server.url, user.token);
      await client.Commits.create(app.id, 'main', `CI attempt ${attempt}`, [{ action: attempt === 1 ? 'create' : 'update', filePath: '.gitlab-ci.yml', content: appCi(lib.path_with_namespace, attempt) }]);
      return eventually(async () => (await jobsOf(app.id)).find((job) => !seen.has(job.id) && job.name === 'use' && ['success', 'failed'].includes(job.status)), 90_000).catch(withOutput);
    };

    // the library's build succeeds with its archive
    await fx.root.RepositoryFiles.create(lib.id, '.gitlab-ci.yml', 'main', LIB_CI, 'Add CI');
    const build = await eventually(async () => (await jobsOf(lib.id)).find((job) => job.name === 'build' && job.status === 'success'), 90_000).catch(withOutput);

    // a Maintainer of the app who is a Reporter of the library
    const dev = await fx.member(app.id, 40);
    await fx.root.ProjectMembers.add(lib.id, 20, { userId: dev.id });

    // 1. the library's allowlist does not name the app: the job fails before it runs
    const refused = await runUse(dev);
    expect(refused.status).toBe('failed');
    expect(refused.failure_reason).toBe('missing_dependency_failure');

    // 2. allowlisted: the archive arrives and the job reads it
    expect((await fx.call('POST', `/projects/${lib.id}/job_token_scope/allowlist`, { body: { target_project_id: app.id } })).status).toBe(201);
    const used = await runUse(dev);
    expect(used.status).toBe('success');
    const log = await trace(app.id, used.id);
    expect(log).toContain('library built at');
    expect(log).toContain('attempt 2');

    // 3. a user who cannot read the library's jobs: missing_dependency_failure again
    const outsider = await fx.member(app.id, 40);
    const stranger = await runUse(outsider);
    expect(stranger.status).toBe('failed');
    expect(stranger.failure_reason).toBe('missing_dependency_failure');
    expect(build.status).toBe('success');
  }, 240_000);
});
