import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient, gitCli, type GitCli, type TestUser } from '../../../test-support/server.js';
import { graphql } from '../../graphql/testing.js';

/**
 * Project features (`*_access_level`, the legacy booleans, public_jobs) through gitbeaker's
 * Projects calls, GitLab's validation, and what a disabled or members-only feature takes away
 * on each surface: REST, GraphQL and git over HTTP, for each role.
 */
describe(`project features (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let guest: TestUser;
  let reporter: TestUser;
  let developer: TestUser;
  let maintainer: TestUser;
  let stranger: TestUser;
  let project: { id: number; path_with_namespace: string };
  let mergeRequestIid: number;
  const clis: GitCli[] = [];

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('features', { visibility: 'public' });
    guest = await fx.member(project.id, 10);
    reporter = await fx.member(project.id, 20);
    developer = await fx.member(project.id, 30);
    maintainer = await fx.member(project.id, 40);
    stranger = await fx.server.createUser();
    await fx.root.Branches.create(project.id, 'topic', 'main');
    await fx.root.RepositoryFiles.create(project.id, 'topic.txt', 'topic', 'topic', 'Add a topic');
    mergeRequestIid = (await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'A topic')).iid as number;
  });
  afterAll(async () => {
    for (const cli of clis) await cli.close();
    await fx?.close();
  });

  const setLevels = async (levels: Record<string, unknown>) => {
    const response = await fx.call('PUT', `/projects/${project.id}`, { body: levels });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const as = (user: TestUser | null) => (user ? user.token : null);
  const clone = async (user: TestUser | null) => {
    const cli = gitCli({ url: fx.server.url, username: user?.username ?? 'anonymous', password: user?.token ?? '' });
    clis.push(cli);
    return cli.git(['ls-remote', cli.repoUrl(project.path_with_namespace)], { allowFailure: true });
  };

  it('answers GitLab’s defaults: every feature enabled, pages enabled on a public project, the legacy booleans', async () => {
    const shown = await fx.root.Projects.show(project.id);
    expect(shown).toMatchObject({
      repository_access_level: 'enabled',
      merge_requests_access_level: 'enabled',
      issues_access_level: 'enabled',
      builds_access_level: 'enabled',
      forking_access_level: 'enabled',
      analytics_access_level: 'enabled',
      pages_access_level: 'enabled',
      container_registry_access_level: 'disabled',
      merge_requests_enabled: true,
      jobs_enabled: true,
      issues_enabled: true,
      container_registry_enabled: false,
      public_jobs: true,
    });
  });

  it('stores levels sent on create and through gitbeaker’s Projects.edit, and the legacy booleans', async () => {
    const created = await fx.root.Projects.create({ name: 'features-created', mergeRequestsAccessLevel: 'private', wikiAccessLevel: 'disabled' } as never);
    expect(created).toMatchObject({ merge_requests_access_level: 'private', wiki_access_level: 'disabled', wiki_enabled: false, pages_access_level: 'private' });
    const edited = await fx.root.Projects.edit(created.id as number, { issuesAccessLevel: 'private', snippetsEnabled: false, publicJobs: false } as never);
    expect(edited).toMatchObject({ issues_access_level: 'private', snippets_access_level: 'disabled', snippets_enabled: false, public_jobs: false });
    expect(await fx.root.Projects.show(created.id as number)).toMatchObject({ issues_access_level: 'private', merge_requests_access_level: 'private' });
  });

  it.each([
    // a word that is no level is Grape's 400 (the parameter's declared values); the rest are the model's messages
    [{ wiki_access_level: 'everyone' }, { error: 'wiki_access_level does not have a valid value' }],
    [{ analytics_access_level: 'public' }, { message: { 'project_feature.analytics_access_level': ['cannot have public visibility level'] } }],
    [
      { repository_access_level: 'private' },
      {
        message: {
          'project_feature.merge_requests_access_level': ['cannot have higher visibility level than repository access level'],
          'project_feature.builds_access_level': ['cannot have higher visibility level than repository access level'],
        },
      },
    ],
  ])('refuses %j with GitLab’s 400 and changes nothing', async (body, answer) => {
    const before = await fx.call('GET', `/projects/${project.id}`);
    const refused = await fx.call('PUT', `/projects/${project.id}`, { body: { ...body, description: 'changed' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(answer);
    const after = await fx.call('GET', `/projects/${project.id}`);
    expect(after.body).toEqual({ ...before.body, last_activity_at: after.body.last_activity_at });
  });

  it('lets only Maintainers change features: a Developer gets 403, a stranger of a private project 404', async () => {
    expect((await fx.call('PUT', `/projects/${project.id}`, { token: developer.token, body: { wiki_access_level: 'disabled' } })).status).toBe(403);
    const closed = await fx.createProject('features-closed');
    expect((await fx.call('PUT', `/projects/${closed.id}`, { token: stranger.token, body: { wiki_access_level: 'disabled' } })).status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}`)).body.wiki_access_level).toBe('enabled');
  });

  it('forking for members only: a stranger of a public project may not fork (404, as GitLab), a Reporter may', async () => {
    await setLevels({ forking_access_level: 'private' });
    try {
      // GitLab answers 404 when the caller sees the project but may not fork it
      expect((await fx.call('POST', `/projects/${project.id}/fork`, { token: stranger.token, body: { path: 'stranger-fork' } })).status).toBe(404);
      expect((await fx.call('POST', `/projects/${project.id}/fork`, { token: reporter.token, body: { path: 'reporter-fork' } })).status).toBe(201);
    } finally {
      await setLevels({ forking_access_level: 'enabled' });
    }
  });

  describe('merge requests disabled', () => {
    beforeAll(() => setLevels({ merge_requests_access_level: 'disabled' }));
    afterAll(() => setLevels({ merge_requests_access_level: 'enabled' }));

    it.each([
      ['anonymous', () => null],
      ['a Reporter', () => reporter],
      ['a Maintainer', () => maintainer],
      ['the administrator', () => 'root' as const],
    ])('%s: the list answers 403, the merge request 404, a new one is refused; the code stays readable', async (_who, who) => {
      const user = who();
      const token = user === 'root' ? fx.server.root.token : as(user);
      expect((await fx.call('GET', `/projects/${project.id}/merge_requests`, { token })).status).toBe(403);
      expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${mergeRequestIid}`, { token })).status).toBe(404);
      if (token) {
        const created = await fx.call('POST', `/projects/${project.id}/merge_requests`, { token, body: { source_branch: 'topic', target_branch: 'main', title: 'Again' } });
        expect([403, 404]).toContain(created.status);
      }
      expect((await fx.call('GET', `/projects/${project.id}/repository/files/README.md?ref=main`, { token })).status).toBe(200);
    });

    it('GraphQL finds no merge request, and the global list leaves the project out', async () => {
      const query = 'query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) { iid } } }';
      const answer = await graphql(fx.server.url, query, { path: project.path_with_namespace, iid: String(mergeRequestIid) }, { token: fx.server.root.token });
      expect(answer.body.data?.project?.mergeRequest ?? null).toBeNull();
      const listed = await fx.call('GET', '/merge_requests?scope=all');
      expect((listed.body as Array<{ project_id: number }>).some((mr) => mr.project_id === project.id)).toBe(false);
    });
  });

  describe('merge requests for members only', () => {
    beforeAll(() => setLevels({ merge_requests_access_level: 'private' }));
    afterAll(() => setLevels({ merge_requests_access_level: 'enabled' }));

    it.each([
      ['anonymous', () => null, 403],
      ['a stranger', () => stranger, 403],
      ['a Guest', () => guest, 403],
      ['a Reporter', () => reporter, 200],
      ['a Developer', () => developer, 200],
    ])('%s lists merge requests: %d, and finds the merge request over GraphQL only when allowed', async (_who, who, status) => {
      const user = who();
      expect((await fx.call('GET', `/projects/${project.id}/merge_requests`, { token: as(user) })).status).toBe(status);
      const query = 'query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) { iid } } }';
      const answer = await graphql(fx.server.url, query, { path: project.path_with_namespace, iid: String(mergeRequestIid) }, user ? { token: user.token } : {});
      expect(answer.body.data?.project?.mergeRequest?.iid ?? null).toBe(status === 200 ? String(mergeRequestIid) : null);
    });
  });

  describe('repository for members only on a public project', () => {
    beforeAll(() => setLevels({ repository_access_level: 'private', merge_requests_access_level: 'private', builds_access_level: 'private' }));
    afterAll(() => setLevels({ repository_access_level: 'enabled', merge_requests_access_level: 'enabled', builds_access_level: 'enabled' }));

    it.each([
      ['anonymous', () => null, false],
      ['a stranger', () => stranger, false],
      ['a Guest', () => guest, true],
      ['a Reporter', () => reporter, true],
    ])('%s reads code over REST and git: %s', async (_who, who, reads) => {
      const user = who();
      const file = await fx.call('GET', `/projects/${project.id}/repository/files/README.md?ref=main`, { token: as(user) });
      expect(file.status).toBe(reads ? 200 : 403);
      const fetched = await clone(user);
      expect(fetched.code === 0).toBe(reads);
      // the project itself is still public
      expect((await fx.call('GET', `/projects/${project.id}`, { token: as(user) })).status).toBe(200);
    });
  });

  describe('repository disabled', () => {
    beforeAll(() => setLevels({ repository_access_level: 'disabled', merge_requests_access_level: 'disabled', builds_access_level: 'disabled' }));
    afterAll(() => setLevels({ repository_access_level: 'enabled', merge_requests_access_level: 'enabled', builds_access_level: 'enabled' }));

    it('nobody reads, clones or pushes code, a Maintainer included; branches cannot be created', async () => {
      expect((await fx.call('GET', `/projects/${project.id}/repository/files/README.md?ref=main`, { token: maintainer.token })).status).toBe(403);
      expect((await clone(maintainer)).code).not.toBe(0);
      expect((await fx.call('POST', `/projects/${project.id}/repository/branches`, { token: maintainer.token, body: { branch: 'nope', ref: 'main' } })).status).toBe(403);
      // git push asks for the receive-pack advertisement first: refused with GitLab's message
      const basic = `Basic ${Buffer.from(`${maintainer.username}:${maintainer.token}`).toString('base64')}`;
      const advertised = await fetch(`${fx.server.url}/${project.path_with_namespace}.git/info/refs?service=git-receive-pack`, { headers: { authorization: basic } });
      expect(advertised.status).toBe(403);
      expect(await advertised.text()).toBe('You are not allowed to push code to this project.\n');
      expect(await gitbeakerClient(fx.server.url, maintainer.token).Projects.show(project.id)).toMatchObject({ repository_access_level: 'disabled' });
    });
  });
});
