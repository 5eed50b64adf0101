/**
 * GitLab's DAG JSON of the pipeline page (`/:full_path/-/pipelines/:id/dag.json`): the stages,
 * their job groups (parallel and matrix jobs as one group) and each `needs:` job's needs; a
 * pipeline the caller may not see is a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { pipelineFixtures } from '../../test-support/pipeline-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';
import type { TestUser } from '../../test-support/server.js';

const CI = `stages: [build, test]
compile:
  stage: build
  script: make
lint:
  stage: build
  script: lint
rspec:
  stage: test
  parallel: 2
  needs: [compile]
  script: rspec
matrix:
  stage: test
  parallel:
    matrix:
      - RUBY: ["3.2", "3.3"]
  needs: [compile, lint]
  script: test
staged:
  stage: test
  script: wait
`;

describe(`pipeline DAG JSON (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let pipelineId: number;
  let developer: TestUser;
  let stranger: TestUser;

  const dag = async (path: string, token: string) => {
    const response = await fetch(`${fx.server.url}/${path}`, { headers: { 'private-token': token } });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    const created = await pipelineFixtures(fx).createCiProject('dag', { '.gitlab-ci.yml': CI });
    project = created.project;
    pipelineId = created.pipeline.id;
    developer = await fx.member(project.id, 30);
    stranger = await fx.server.createUser();
  });
  afterAll(() => fx?.close());

  it('answers the stages, the job groups and the needs of the jobs scheduled by their needs', async () => {
    const { status, body } = await dag(`${project.path_with_namespace}/-/pipelines/${pipelineId}/dag.json`, developer.token);
    expect(status).toBe(200);
    expect(body).toEqual({
      stages: [
        {
          name: 'build',
          groups: [
            { name: 'compile', size: 1, jobs: [{ name: 'compile' }] },
            { name: 'lint', size: 1, jobs: [{ name: 'lint' }] },
          ],
        },
        {
          name: 'test',
          groups: [
            {
              name: 'matrix',
              size: 2,
              jobs: [
                { name: 'matrix: [3.2]', needs: ['compile', 'lint'] },
                { name: 'matrix: [3.3]', needs: ['compile', 'lint'] },
              ],
            },
            {
              name: 'rspec',
              size: 2,
              jobs: [
                { name: 'rspec 1/2', needs: ['compile'] },
                { name: 'rspec 2/2', needs: ['compile'] },
              ],
            },
            { name: 'staged', size: 1, jobs: [{ name: 'staged' }] },
          ],
        },
      ],
    });
  });

  it('is a 404 for a stranger, for another project’s pipeline id and for a malformed id', async () => {
    expect((await dag(`${project.path_with_namespace}/-/pipelines/${pipelineId}/dag.json`, stranger.token)).status).toBe(404);
    expect((await dag(`${project.path_with_namespace}/-/pipelines/${pipelineId + 1000}/dag.json`, developer.token)).status).toBe(404);
    expect((await dag(`${project.path_with_namespace}/-/pipelines/x1/dag.json`, developer.token)).status).toBe(404);
  });

  it('is a 404 for a Guest once the project’s pipelines are not public (public_builds off)', async () => {
    const guest = await fx.member(project.id, 10);
    expect((await fx.call('PUT', `/projects/${project.id}`, { body: { public_builds: false } })).status).toBe(200);
    // the API answers GitLab's 403 (the project is visible); the page's JSON a 404, as GitLab's web controllers
    expect((await fx.call('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`, { token: guest.token })).status).toBe(403);
    expect((await dag(`${project.path_with_namespace}/-/pipelines/${pipelineId}/dag.json`, guest.token)).status).toBe(404);
    expect((await dag(`${project.path_with_namespace}/-/pipelines/${pipelineId}/dag.json`, developer.token)).status).toBe(200);
  });
});
