/**
 * The CI/CD job token inbound allowlist (GitLab's doc/api/project_job_token_scopes.md) and what
 * it opens: Maintainers list, add and remove the projects whose job tokens may read theirs; a
 * stranger gets 404 and a Developer 403. A job of an allowlisted project gets another project's
 * build as a `needs: project:` dependency (gitlab-runner's payload) and downloads it with its own
 * job token, and may call that project's API and clone its repository with it; taken off the list, that token reads nothing there.
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
import type { TestUser } from '../../../../test-support/server.js';

const run = promisify(execFile);

interface RunnerJob {
  id: number;
  token: string;
  job_info: { name: string; project_id: number };
  dependencies: { id: number; name: string; token: string; artifacts_file?: { filename: string; size: number } }[];
}

describe(`job token scope allowlist (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let lib: { id: number; path_with_namespace: string };
  let app: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let stranger: TestUser;
  let runnerToken: string;
  const archive = Buffer.from('PK\u0003\u0004 the library’s build output');

  const requestJob = async (): Promise<RunnerJob | null> => {
    const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0' } }),
    });
    return response.status === 201 ? ((await response.json()) as RunnerJob) : null;
  };
  const finish = async (job: RunnerJob) => {
    const done = await fetch(`${fx.server.url}/api/v4/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: job.token, state: 'success' }) });
    expect(done.status).toBe(200);
  };

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    lib = await fx.createProject('scope-lib');
    app = await fx.createProject('scope-app');
    developer = await fx.member(lib.id, 30);
    stranger = await fx.server.createUser();
    runnerToken = ((await fx.root.Users.createCIRunner('instance_type', { runUntagged: true })) as { token: string }).token;
  });
  const dir = mkdtempSync(join(tmpdir(), 'job-token-scope-'));
  /** The stock git client with no configuration or prompt: only the URL's credentials count. */
  const clone = (path: string, token: string, into: string) => {
    const url = new URL(`${fx.server.url}/${path}.git`);
    url.username = 'gitlab-ci-token';
    url.password = token;
    return run('git', ['clone', '--quiet', url.toString(), into], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
    });
  };
  afterAll(async () => {
    await fx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets Maintainers list, add and remove allowed projects, with GitLab’s answers', async () => {
    expect((await fx.call('GET', `/projects/${lib.id}/job_token_scope`)).body).toEqual({ inbound_enabled: true, outbound_enabled: false });
    const added = await fx.call('POST', `/projects/${lib.id}/job_token_scope/allowlist`, { body: { target_project_id: app.id } });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ source_project_id: lib.id, target_project_id: app.id });
    const again = await fx.call('POST', `/projects/${lib.id}/job_token_scope/allowlist`, { body: { target_project_id: app.id } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: '400 Bad request - Target project is already in the job token scope' });
    const list = await fx.call('GET', `/projects/${lib.id}/job_token_scope/allowlist`);
    expect(list.status).toBe(200);
    expect(list.body.map((project: { id: number; path_with_namespace: string }) => project.path_with_namespace)).toEqual([app.path_with_namespace]);
    expect(list.headers.get('x-total')).toBe('1');
    // a project the caller cannot see is refused as GitLab refuses it, and nothing changes
    const hidden = await fx.call('POST', `/projects/${lib.id}/job_token_scope/allowlist`, { body: { target_project_id: 999_999 } });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 target_project Not Found' });
    expect((await fx.call('POST', `/projects/${lib.id}/job_token_scope/allowlist`, { body: {} })).status).toBe(400);
    expect((await fx.call('GET', `/projects/${lib.id}/job_token_scope/allowlist`)).body).toHaveLength(1);
  });

  it('refuses strangers (404) and Developers (403), who change nothing', async () => {
    for (const [user, status] of [[stranger, 404], [developer, 403]] as const) {
      expect((await fx.call('GET', `/projects/${lib.id}/job_token_scope`, { token: user.token })).status).toBe(status);
      expect((await fx.call('GET', `/projects/${lib.id}/job_token_scope/allowlist`, { token: user.token })).status).toBe(status);
      expect((await fx.call('POST', `/projects/${lib.id}/job_token_scope/allowlist`, { token: user.token, body: { target_project_id: app.id } })).status).toBe(status);
      expect((await fx.call('DELETE', `/projects/${lib.id}/job_token_scope/allowlist/${app.id}`, { token: user.token })).status).toBe(status);
    }
    expect((await fx.call('GET', `/projects/${lib.id}/job_token_scope/allowlist`)).body).toHaveLength(1);
    expect((await fx.call('GET', `/projects/${lib.id}/job_token_scope`, { token: null })).status).toBe(401);
  });

  it('hands an allowlisted project’s job the other project’s build, downloadable with its token until the entry goes', async () => {
    await fx.root.RepositoryFiles.create(lib.id, '.gitlab-ci.yml', 'main', 'build:\n  script: [make]\n  artifacts:\n    paths: [out/]\n', 'Add CI');
    const build = await eventually(requestJob);
    expect(build.job_info.name).toBe('build');
    const form = new FormData();
    form.append('file', new Blob([archive]), 'artifacts.zip');
    expect((await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts?artifact_format=zip&artifact_type=archive`, { method: 'POST', headers: { 'JOB-TOKEN': build.token }, body: form })).status).toBe(201);
    await finish(build);

    const ci = `use:\n  script: [cat out/result]\n  needs:\n    - project: ${lib.path_with_namespace}\n      job: build\n      ref: main\nwithout:\n  script: [true]\n  needs:\n    - { project: ${lib.path_with_namespace}, job: build, ref: main, artifacts: false }\n`;
    await fx.root.RepositoryFiles.create(app.id, '.gitlab-ci.yml', 'main', ci, 'Add CI');
    const jobs: RunnerJob[] = [];
    await eventually(async () => {
      const job = await requestJob();
      if (job) jobs.push(job);
      return jobs.length === 2;
    });
    const byName = Object.fromEntries(jobs.map((job) => [job.job_info.name, job]));
    const use = byName.use!;
    expect(use.dependencies).toEqual([{ id: build.id, name: 'build', token: use.token, artifacts_file: { filename: 'artifacts.zip', size: archive.length } }]);
    expect(byName.without!.dependencies).toEqual([]);
    const download = await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts`, { headers: { 'JOB-TOKEN': use.token } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(archive);

    // the job token may call the library's API too (GitLab's: `curl --header "JOB-TOKEN: $CI_JOB_TOKEN" …/jobs/artifacts/main/download?job=build`)
    const byRef = `${fx.server.url}/api/v4/projects/${lib.id}/jobs/artifacts/main/download?job=build`;
    const viaApi = await fetch(byRef, { headers: { 'JOB-TOKEN': use.token } });
    expect(viaApi.status).toBe(200);
    expect(Buffer.from(await viaApi.arrayBuffer())).toEqual(archive);
    // and clone its repository, as `gitlab-ci-token`
    await clone(lib.path_with_namespace, use.token, 'lib-allowed');

    // off the allowlist, the job token reads no more of the library than an anonymous caller
    expect((await fx.call('DELETE', `/projects/${lib.id}/job_token_scope/allowlist/${app.id}`)).status).toBe(204);
    expect((await fx.call('DELETE', `/projects/${lib.id}/job_token_scope/allowlist/${app.id}`)).status).toBe(400);
    expect((await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts`, { headers: { 'JOB-TOKEN': use.token } })).status).toBe(404);
    expect((await fetch(byRef, { headers: { 'JOB-TOKEN': use.token } })).status).toBe(401);
    await expect(clone(lib.path_with_namespace, use.token, 'lib-refused')).rejects.toThrow();
    for (const job of jobs) await finish(job);
  });
});
