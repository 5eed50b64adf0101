import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';

/** POST /projects/:id/ci/lint: GitLab's answer shape, includes read from the repository, and who may call it. */
describe(`CI lint API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('lint-target');
    await fx.root.RepositoryFiles.create(project.id, 'ci/build.yml', 'main', 'build:\n  stage: build\n  script: make\n', 'Add CI include');
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    const other = await fx.createProject('lint-other');
    stranger = await fx.member(other.id, 30);
  });
  afterAll(() => fx?.close());

  it('validates a configuration with local includes through @gitbeaker/rest, jobs listed on request', async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const result = (await client.Lint.lint(project.id, 'include: ci/build.yml\ntest:\n  script: make test\n  needs: [build]\n', {
      includeJobs: true,
    })) as unknown as Record<string, any>;
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.merged_yaml).toMatch(/^---\n[\s\S]*build:/);
    expect(result.includes).toMatchObject([{ type: 'local', location: 'ci/build.yml' }]);
    expect(result.jobs.map((job: { name: string }) => job.name)).toEqual(['build', 'test']);
    expect(result.jobs[1]).toMatchObject({ stage: 'test', script: ['make test'], when: 'on_success', allow_failure: false, needs: [{ name: 'build' }] });
  });

  it('answers 200 with GitLab’s errors for an invalid configuration', async () => {
    const response = await fx.call('POST', `/projects/${project.id}/ci/lint`, {
      token: developer.token,
      body: { content: 'include: ci/missing.yml\n' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      valid: false,
      errors: ['Local file `ci/missing.yml` does not exist!'],
      warnings: [],
      merged_yaml: null,
      includes: null,
    });
  });

  it('refuses a Reporter (403), hides a private project from a stranger (404), and wants content (400)', async () => {
    const body = { content: 'a:\n  script: x\n' };
    expect((await fx.call('POST', `/projects/${project.id}/ci/lint`, { token: reporter.token, body })).status).toBe(403);
    expect((await fx.call('POST', `/projects/${project.id}/ci/lint`, { token: stranger.token, body })).status).toBe(404);
    const missing = await fx.call('POST', `/projects/${project.id}/ci/lint`, { token: developer.token, body: {} });
    expect(missing.status).toBe(400);
  });
});
