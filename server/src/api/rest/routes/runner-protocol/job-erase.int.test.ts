/**
 * `POST /projects/:id/jobs/:job_id/erase` (GitLab's doc/api/jobs.md "Erase a job"): a finished
 * job's log and artifacts are removed, the job answers with `erased_at` (201); a running job is
 * "403 Forbidden - Job is not erasable!", a stranger gets 404, a Reporter 403, and a Developer
 * only the jobs they ran (Maintainers any). Nothing changes on a refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';

describe(`job erase (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number };
  let runnerToken: string;
  const archive = Buffer.from('PK\u0003\u0004 bytes to erase');

  const requestJob = async () => {
    const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runnerToken }) });
    return response.status === 201 ? ((await response.json()) as { id: number; token: string }) : null;
  };

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('erase');
    runnerToken = ((await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string }).token;
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', 'build:\n  script: [make]\n  artifacts:\n    paths: [out/]\n', 'Add CI');
  });
  afterAll(() => fx?.close());

  it('erases a finished job’s log and artifacts for those who may, and refuses the rest', async () => {
    const job = await eventually(requestJob);
    const log = Buffer.from('building…\n');
    expect((await fetch(`${fx.server.url}/api/v4/jobs/${job.id}/trace`, { method: 'PATCH', headers: { 'JOB-TOKEN': job.token, 'Content-Range': `0-${log.length - 1}` }, body: log })).status).toBe(202);
    const form = new FormData();
    form.append('file', new Blob([archive]), 'artifacts.zip');
    expect((await fetch(`${fx.server.url}/api/v4/jobs/${job.id}/artifacts?artifact_format=zip&artifact_type=archive`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form })).status).toBe(201);

    // still running: not erasable
    const running = await fx.call('POST', `/projects/${project.id}/jobs/${job.id}/erase`);
    expect(running.status).toBe(403);
    expect(running.body).toEqual({ message: '403 Forbidden - Job is not erasable!' });
    expect((await fetch(`${fx.server.url}/api/v4/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: job.token, state: 'success' }) })).status).toBe(200);

    const stranger = await fx.server.createUser();
    const reporter = await fx.member(project.id, 20);
    const developer = await fx.member(project.id, 30);
    expect((await fx.call('POST', `/projects/${project.id}/jobs/${job.id}/erase`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('POST', `/projects/${project.id}/jobs/${job.id}/erase`, { token: reporter.token })).status).toBe(403);
    // root ran the job (its pipeline's user): a Developer may not erase it
    expect((await fx.call('POST', `/projects/${project.id}/jobs/${job.id}/erase`, { token: developer.token })).status).toBe(403);
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/artifacts`)).status).toBe(200);
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/trace`)).raw.toString()).toBe(log.toString());

    // the real client's call (gitbeaker's Jobs.erase), as root, a Maintainer and more
    const erased = await fx.root.Jobs.erase(project.id, job.id);
    expect(erased).toMatchObject({ id: job.id, status: 'success' });
    expect(Date.parse(String(erased.erased_at))).not.toBeNaN();
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/artifacts`)).status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/trace`)).raw.toString()).toBe('');
    // nothing left to erase
    expect((await fx.call('POST', `/projects/${project.id}/jobs/${job.id}/erase`)).status).toBe(403);
  });
});
