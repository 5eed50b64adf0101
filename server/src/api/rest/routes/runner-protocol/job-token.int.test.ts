/**
 * CI_JOB_TOKEN as GitLab has it: the job's clone URL (`gitlab-ci-token:<token>@host`) works with
 * the stock git client for the job's project while the job runs; the token reads the API of its
 * own project (JOB-TOKEN header, job_token parameter) and nothing else; it cannot push; it dies
 * when the job finishes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';

const run = promisify(execFile);

describe(`runner protocol: CI_JOB_TOKEN (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let dir: string;
  let project: { id: number; path_with_namespace: string };
  let other: { id: number; path_with_namespace: string };
  let job: { id: number; token: string; git_info: { repo_url: string } };

  /** The stock git client with no configuration, credential helper or prompt: only the URL's credentials count. */
  const git = (args: string[]) =>
    run('git', args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
    });
  const cloneUrl = (path: string, token: string) => {
    const url = new URL(`${fx.server.url}/${path}.git`);
    url.username = 'gitlab-ci-token';
    url.password = token;
    return url.toString();
  };
  const api = (path: string, headers: Record<string, string>) => fetch(`${fx.server.url}/api/v4${path}`, { headers });

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    dir = mkdtempSync(join(tmpdir(), 'jobtok-'));
    project = await fx.createProject('token-home');
    other = await fx.createProject('token-other');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', 'clone:\n  script: [git status]\n', 'Add CI');
    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).length > 0);
    const runner = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string };
    const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'RUNNER-TOKEN': runner.token },
      body: JSON.stringify({ token: runner.token, info: { name: 'gitlab-runner', version: '17.5.0' } }),
    });
    expect(response.status).toBe(201);
    job = (await response.json()) as typeof job;
  });
  afterAll(async () => {
    await fx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('clones the job’s project with the URL of the payload, and nothing else', async () => {
    await git(['clone', '--quiet', job.git_info.repo_url, 'own']);
    const { stdout } = await git(['-C', 'own', 'log', '--format=%s', '-1']);
    expect(stdout.trim()).toBe('Add CI');
    await expect(git(['clone', '--quiet', cloneUrl(other.path_with_namespace, job.token), 'other'])).rejects.toThrow();
    await expect(git(['clone', '--quiet', cloneUrl(project.path_with_namespace, 'glcbt-not-a-token'), 'bogus'])).rejects.toThrow();
  });

  it('cannot push', async () => {
    await git(['-C', 'own', '-c', 'user.name=CI', '-c', 'user.email=ci@example.com', 'commit', '--allow-empty', '-m', 'from CI']);
    await expect(git(['-C', 'own', 'push', 'origin', 'HEAD:refs/heads/from-ci'])).rejects.toThrow();
  });

  it('reads the API of its own project only (JOB-TOKEN header and job_token parameter)', async () => {
    const own = await api(`/projects/${project.id}`, { 'JOB-TOKEN': job.token });
    expect(own.status).toBe(200);
    expect(((await own.json()) as { id: number }).id).toBe(project.id);
    expect((await api(`/projects/${project.id}/jobs/${job.id}?job_token=${job.token}`, {})).status).toBe(200);
    expect((await api(`/projects/${other.id}`, { 'JOB-TOKEN': job.token })).status).toBe(401);
    expect((await api('/projects', { 'JOB-TOKEN': job.token })).status).toBe(401);
    expect((await api('/user', { 'JOB-TOKEN': job.token })).status).toBe(401);
    const write = await fetch(`${fx.server.url}/api/v4/projects/${project.id}`, { method: 'PUT', headers: { 'JOB-TOKEN': job.token, 'Content-Type': 'application/json' }, body: JSON.stringify({ description: 'x' }) });
    expect(write.status).toBe(403);
  });

  it('dies when the job finishes', async () => {
    const done = await fetch(`${fx.server.url}/api/v4/jobs/${job.id}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token },
      body: JSON.stringify({ token: job.token, state: 'success' }),
    });
    expect(done.status).toBe(200);
    await expect(git(['clone', '--quiet', job.git_info.repo_url, 'after'])).rejects.toThrow();
    expect((await api(`/projects/${project.id}`, { 'JOB-TOKEN': job.token })).status).toBe(401);
  });
});
