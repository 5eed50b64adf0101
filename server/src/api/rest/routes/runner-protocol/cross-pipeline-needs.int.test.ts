/**
 * `needs: [{pipeline: $PARENT_PIPELINE_ID, job: build}]` (GitLab's cross-pipeline dependencies)
 * as gitlab-runner receives them: a child pipeline's job gets the parent's `build` archive among
 * its `dependencies` and downloads it with its own job token; `artifacts: false` takes none, and
 * a pipeline that is not an ancestor (here the child itself) gives nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';

const PARENT = `stages: [build, trigger]
build:
  stage: build
  script: [make]
  artifacts:
    paths: [out/]
child:
  stage: trigger
  variables:
    PARENT_PIPELINE_ID: $CI_PIPELINE_ID
  trigger:
    include: child.yml
`;
const CHILD = `use:
  script: [cat out/result]
  needs:
    - pipeline: $PARENT_PIPELINE_ID
      job: build
without:
  script: [true]
  needs:
    - pipeline: $PARENT_PIPELINE_ID
      job: build
      artifacts: false
itself:
  script: [true]
  needs:
    - pipeline: $CI_PIPELINE_ID
      job: build
`;

interface RunnerJob {
  id: number;
  token: string;
  job_info: { name: string };
  dependencies: { id: number; name: string; token: string; artifacts_file?: { filename: string; size: number } }[];
}

describe(`runner protocol: cross-pipeline needs (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let runnerToken: string;
  const archive = Buffer.from('PK\u0003\u0004 the parent pipeline’s build output');

  const requestJob = async (): Promise<RunnerJob> => {
    const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'RUNNER-TOKEN': runnerToken },
      body: JSON.stringify({ token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0' } }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as RunnerJob;
  };

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    const project = await fx.createProject('cross-needs');
    await fx.root.RepositoryFiles.create(project.id, 'child.yml', 'main', CHILD, 'Add the child pipeline');
    runnerToken = ((await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string }).token;
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', PARENT, 'Add CI');
    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).some((job) => job.name === 'build'));
  });
  afterAll(() => fx?.close());

  it('hands a child pipeline’s job the parent’s artifacts it needs, and nothing else', async () => {
    const build = await requestJob();
    expect(build.job_info.name).toBe('build');
    const form = new FormData();
    form.append('file', new Blob([archive]), 'artifacts.zip');
    const uploaded = await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts?artifact_format=zip&artifact_type=archive`, { method: 'POST', headers: { 'JOB-TOKEN': build.token }, body: form });
    expect(uploaded.status).toBe(201);
    const finished = await fetch(`${fx.server.url}/api/v4/jobs/${build.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': build.token }, body: JSON.stringify({ token: build.token, state: 'success' }) });
    expect(finished.status).toBe(200);

    // the trigger job creates the child pipeline; its three jobs need nothing of their own pipeline
    const jobs: RunnerJob[] = [];
    await eventually(async () => {
      const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'RUNNER-TOKEN': runnerToken },
        body: JSON.stringify({ token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0' } }),
      });
      if (response.status === 201) jobs.push((await response.json()) as RunnerJob);
      return jobs.length === 3;
    });
    const byName = Object.fromEntries(jobs.map((job) => [job.job_info.name, job]));
    const use = byName.use!;
    expect(use.dependencies).toEqual([{ id: build.id, name: 'build', token: use.token, artifacts_file: { filename: 'artifacts.zip', size: archive.length } }]);
    const download = await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts`, { headers: { 'JOB-TOKEN': use.token } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(archive);
    expect(byName.without!.dependencies).toEqual([]);
    expect(byName.itself!.dependencies).toEqual([]);
    // the runner finishes what it took, so the pipelines end before the server stops
    for (const job of jobs) {
      const done = await fetch(`${fx.server.url}/api/v4/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token }, body: JSON.stringify({ token: job.token, state: 'success' }) });
      expect(done.status).toBe(200);
    }
  });
});
