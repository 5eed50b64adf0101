/**
 * `Pipeline.manualVariables` (the pipeline page's Manual variables tab), as GitLab's
 * get_manual_variables query asks for it: every reader of the pipeline sees the keys and the
 * count; the values only Maintainers and the Developer who ran the pipeline (GitLab's
 * read_pipeline_variable); a stranger gets no project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';
import { graphql } from '../testing.js';

const GET_MANUAL_VARIABLES = `query getManualVariables($projectPath: ID!, $iid: ID!) {
  project(fullPath: $projectPath) {
    id
    pipeline(iid: $iid) {
      id
      manualVariables {
        count
        nodes { id key value }
      }
    }
  }
}`;

describe(`GraphQL Pipeline.manualVariables (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let otherDeveloper: TestUser;
  let reporter: TestUser;
  let maintainer: TestUser;
  let stranger: TestUser;
  let withVariables: { id: number; iid: number };
  let withoutVariables: { id: number; iid: number };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('manual-variables');
    developer = await fx.member(project.id, 30);
    otherDeveloper = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    maintainer = await fx.member(project.id, 40);
    stranger = await fx.server.createUser();
    await fx.root.ProtectedBranches.remove(project.id, 'main');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', 'build:\n  script: make\n', 'Add CI');
    const run = async (body: Record<string, unknown>) => {
      const response = await fx.call('POST', `/projects/${project.id}/pipeline`, { token: developer.token, body: { ref: 'main', ...body } });
      expect(response.status).toBe(201);
      return response.body as { id: number; iid: number };
    };
    withVariables = await run({ variables: [{ key: 'DEPLOY_ENV', value: 'staging' }, { key: 'SECRET_TOKEN', value: 's3cr3t', variable_type: 'file' }] });
    withoutVariables = await run({});
  });
  afterAll(() => fx?.close());

  const read = async (user: TestUser, iid: number) => {
    const answer = await graphql(fx.server.url, GET_MANUAL_VARIABLES, { projectPath: project.path_with_namespace, iid: String(iid) }, { token: user.token });
    expect(answer.status).toBe(200);
    return answer.body.data.project?.pipeline?.manualVariables ?? null;
  };

  it('gives the triggering Developer and a Maintainer the values', async () => {
    for (const user of [developer, maintainer]) {
      const variables = await read(user, withVariables.iid);
      expect(variables.count).toBe(2);
      expect(variables.nodes).toEqual([
        { id: expect.stringMatching(/^gid:\/\/gitlab\/Ci::PipelineVariable\/\d+$/), key: 'DEPLOY_ENV', value: 'staging' },
        { id: expect.stringMatching(/^gid:\/\/gitlab\/Ci::PipelineVariable\/\d+$/), key: 'SECRET_TOKEN', value: 's3cr3t' },
      ]);
    }
  });

  it('shows a Reporter and another Developer the keys only', async () => {
    for (const user of [reporter, otherDeveloper]) {
      const variables = await read(user, withVariables.iid);
      expect(variables.count).toBe(2);
      expect(variables.nodes.map((node: { key: string; value: string | null }) => [node.key, node.value])).toEqual([
        ['DEPLOY_ENV', null],
        ['SECRET_TOKEN', null],
      ]);
    }
  });

  it('answers an empty list for a pipeline run without variables, and nothing to a stranger', async () => {
    expect(await read(maintainer, withoutVariables.iid)).toEqual({ count: 0, nodes: [] });
    const answer = await graphql(fx.server.url, GET_MANUAL_VARIABLES, { projectPath: project.path_with_namespace, iid: String(withVariables.iid) }, { token: stranger.token });
    expect(answer.body.data.project).toBeNull();
  });
});
