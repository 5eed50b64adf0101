import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** GET/POST/DELETE /projects/:id/repository/branches and GET …/tags, through gitbeaker where it covers them. */
describe(`repository branches API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;
  let mainSha: string;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('branches-api');
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    mainSha = await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main']);
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('creates a branch from a ref (201) and shows it with GitLab fields', async () => {
    const branch = await fx.root.Branches.create(project.id, 'feature/login', 'main');
    expect(branch).toMatchObject({
      name: 'feature/login',
      merged: false,
      protected: false,
      default: false,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: true,
      web_url: `${fx.server.url}/${project.path_with_namespace}/-/tree/feature/login`,
      commit: {
        id: mainSha,
        short_id: mainSha.slice(0, 8),
        title: 'Initial commit',
        parent_ids: [],
        trailers: {},
        extended_trailers: {},
        web_url: `${fx.server.url}/${project.path_with_namespace}/-/commit/${mainSha}`,
      },
    });
    expect(branch.commit.authored_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const shown = await fx.root.Branches.show(project.id, 'feature/login');
    expect(shown.name).toBe('feature/login');
  });

  it('shows the default branch as protected and default, and a branch name with "/" URL-encoded in one segment', async () => {
    const main = await fx.root.Branches.show(project.id, 'main');
    expect(main).toMatchObject({ name: 'main', default: true, protected: true, merged: false, can_push: true });
    const raw = await fx.call('GET', `/projects/${project.id}/repository/branches/feature%2Flogin`);
    expect(raw.status).toBe(200);
    expect(raw.body.name).toBe('feature/login');
    const unencoded = await fx.call('GET', `/projects/${project.id}/repository/branches/feature/login`);
    expect(unencoded.status).toBe(200);
    expect(unencoded.body.name).toBe('feature/login');
  });

  it('reports merged for a branch behind the default branch', async () => {
    await fx.root.RepositoryFiles.create(project.id, 'later.txt', 'main', 'later\n', 'Later commit');
    const branch = await fx.root.Branches.show(project.id, 'feature/login');
    expect(branch.merged).toBe(true);
    const list = await fx.root.Branches.all(project.id);
    expect(list.find((b) => b.name === 'feature/login')?.merged).toBe(true);
    expect(list.find((b) => b.name === 'main')?.merged).toBe(false);
  });

  it('answers 400 with GitLab messages for invalid names, existing branches and unknown refs', async () => {
    const invalid = await fx.call('POST', `/projects/${project.id}/repository/branches`, { body: { branch: 'bad..name', ref: 'main' } });
    expect(invalid).toMatchObject({ status: 400, body: { message: 'Branch name is invalid' } });
    const dash = await fx.call('POST', `/projects/${project.id}/repository/branches`, { body: { branch: '-h', ref: 'main' } });
    expect(dash).toMatchObject({ status: 400, body: { message: 'Branch name is invalid' } });
    const exists = await fx.call('POST', `/projects/${project.id}/repository/branches`, { body: { branch: 'feature/login', ref: 'main' } });
    expect(exists).toMatchObject({ status: 400, body: { message: 'Branch already exists' } });
    const unknown = await fx.call('POST', `/projects/${project.id}/repository/branches`, { body: { branch: 'x', ref: 'nope' } });
    expect(unknown).toMatchObject({ status: 400, body: { message: 'Invalid reference name: nope' } });
    const missing = await fx.call('POST', `/projects/${project.id}/repository/branches?branch=y`);
    expect(missing.status).toBe(400);
    const hierarchy = await fx.call('POST', `/projects/${project.id}/repository/branches`, { body: { branch: 'feature/login/deeper', ref: 'main' } });
    expect(hierarchy.status).toBe(400);
    expect(hierarchy.body.message).toContain('conflicts with existing branch hierarchy');
  });

  it('accepts parameters in the query string, as gitbeaker and GitLab docs send them', async () => {
    const created = await fx.call('POST', `/projects/${project.id}/repository/branches?branch=from-query&ref=${mainSha}`);
    expect(created.status).toBe(201);
    expect(created.body.commit.id).toBe(mainSha);
  });

  it('lists with search anchors and pagination headers; gitbeaker follows every page', async () => {
    for (const name of ['search/alpha', 'search/beta', 'other-alpha']) await fx.root.Branches.create(project.id, name, 'main');
    const prefixed = await fx.root.Branches.all(project.id, { search: '^search/' });
    expect(prefixed.map((b) => b.name)).toEqual(['search/alpha', 'search/beta']);
    const suffixed = await fx.root.Branches.all(project.id, { search: 'alpha$' });
    expect(suffixed.map((b) => b.name)).toEqual(['other-alpha', 'search/alpha']);
    const contains = await fx.root.Branches.all(project.id, { search: 'ALPHA' });
    expect(contains).toHaveLength(2);

    const page = await fx.call('GET', `/projects/${project.id}/repository/branches?per_page=2&page=1`);
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('x-total')).toBe(String((await fx.root.Branches.all(project.id)).length));
    expect(page.headers.get('x-next-page')).toBe('2');
    expect(page.headers.get('link')).toContain('rel="next"');
    const everything = await fx.root.Branches.all(project.id, { perPage: 2 });
    expect(everything.map((b) => b.name)).toContain('search/beta');
    expect(new Set(everything.map((b) => b.name)).size).toBe(everything.length);
  });

  it('refuses Reporters (403) and hides private projects from strangers (404)', async () => {
    const asReporter = gitbeakerClient(fx.server.url, reporter.token);
    expect((await asReporter.Branches.all(project.id)).length).toBeGreaterThan(0);
    const create = await fx.call('POST', `/projects/${project.id}/repository/branches`, { token: reporter.token, body: { branch: 'r', ref: 'main' } });
    expect(create.status).toBe(403);
    const stranger = await fx.server.createUser();
    const hidden = await fx.call('GET', `/projects/${project.id}/repository/branches`, { token: stranger.token });
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const anonymous = await fx.call('GET', `/projects/${project.id}/repository/branches`, { token: null });
    expect(anonymous.status).toBe(404);
  });

  it('lets a Developer create and delete an unprotected branch (204), recording both as pushes', async () => {
    const asDeveloper = gitbeakerClient(fx.server.url, developer.token);
    const created = await asDeveloper.Branches.create(project.id, 'dev-topic', 'main');
    expect(created.can_push).toBe(true);
    const removed = await fx.call('DELETE', `/projects/${project.id}/repository/branches/dev-topic`, { token: developer.token });
    expect(removed.status).toBe(204);
    expect(removed.raw.length).toBe(0);
    const gone = await fx.call('GET', `/projects/${project.id}/repository/branches/dev-topic`);
    expect(gone).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } });
    const { rows } = await fx.server.app.db.query<{ old_sha: string; new_sha: string }>(
      'SELECT old_sha, new_sha FROM push_events WHERE project_id = $1 AND ref = $2 ORDER BY id',
      [project.id, 'refs/heads/dev-topic'],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]!.old_sha).toMatch(/^0+$/);
    expect(rows[1]!.new_sha).toMatch(/^0+$/);
  });

  it('never deletes the default branch (400) and keeps protected branches from Developers (403)', async () => {
    const defaultBranch = await fx.call('DELETE', `/projects/${project.id}/repository/branches/main`);
    expect(defaultBranch).toMatchObject({ status: 400, body: { message: 'The default branch of a project cannot be deleted.' } });

    await fx.root.Branches.create(project.id, 'stable-1', 'main');
    await fx.root.ProtectedBranches.create(project.id, 'stable-*');
    const protectedBranch = await fx.root.Branches.show(project.id, 'stable-1');
    expect(protectedBranch).toMatchObject({ protected: true, developers_can_push: false });
    const asDeveloper = await fx.call('GET', `/projects/${project.id}/repository/branches/stable-1`, { token: developer.token });
    expect(asDeveloper.body.can_push).toBe(false);

    const refused = await fx.call('DELETE', `/projects/${project.id}/repository/branches/stable-1`, { token: developer.token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
    );
    const byReporter = await fx.call('DELETE', `/projects/${project.id}/repository/branches/stable-1`, { token: reporter.token });
    expect(byReporter.status).toBe(403);
    const byMaintainer = await fx.call('DELETE', `/projects/${project.id}/repository/branches/stable-1`);
    expect(byMaintainer.status).toBe(204);
    const missing = await fx.call('DELETE', `/projects/${project.id}/repository/branches/stable-1`);
    expect(missing.status).toBe(404);
  });

  it('keeps Developers from creating branches that match a protection they cannot push to', async () => {
    await fx.root.ProtectedBranches.create(project.id, 'release/*');
    const refused = await fx.call('POST', `/projects/${project.id}/repository/branches`, { token: developer.token, body: { branch: 'release/1', ref: 'main' } });
    expect(refused).toMatchObject({ status: 403, body: { message: 'You are not allowed to create protected branches on this project.' } });
  });

  it('lists tags, lightweight and annotated', async () => {
    await fx.bareGit(project.id, ['update-ref', 'refs/tags/v1.0.0', mainSha]);
    await fx.bareGit(project.id, ['tag', '-a', '-m', 'Release 1.1', 'v1.1.0', mainSha], {
      env: { GIT_COMMITTER_NAME: 'Tagger', GIT_COMMITTER_EMAIL: 'tagger@example.com' },
    });
    const tags = await fx.root.Tags.all(project.id, { orderBy: 'name', sort: 'asc' });
    expect(tags.map((tag) => tag.name)).toEqual(['v1.0.0', 'v1.1.0']);
    expect(tags[0]).toMatchObject({ name: 'v1.0.0', target: mainSha, message: null, release: null, protected: false, created_at: null, commit: { id: mainSha } });
    expect(tags[1]!.message).toContain('Release 1.1');
    expect(tags[1]!.target).not.toBe(mainSha);
    expect((tags[1]!.commit as { id: string }).id).toBe(mainSha);
    expect(tags[1]!.created_at).toMatch(/Z$/);
    const searched = await fx.root.Tags.all(project.id, { search: '^v1.1' });
    expect(searched.map((tag) => tag.name)).toEqual(['v1.1.0']);
  });
  it('on an empty repository first commits an empty README.md to the default branch, as GitLab does, then branches from it', async () => {
    const empty = (await fx.root.Projects.create({ name: 'branches-empty' })) as { id: number; empty_repo: boolean };
    expect(empty.empty_repo).toBe(true);
    const branch = await fx.root.Branches.create(empty.id, 'feature', 'main');
    expect(branch).toMatchObject({ name: 'feature', commit: { title: 'Add README.md' } });
    const main = await fx.root.Branches.show(empty.id, 'main');
    expect(main.commit.id).toBe(branch.commit.id);
    expect(await fx.bareGit(empty.id, ['cat-file', '-s', 'refs/heads/main:README.md'])).toBe('0');
    expect(((await fx.root.Projects.show(empty.id)) as { empty_repo: boolean }).empty_repo).toBe(false);
  });

  it('on an empty repository refuses a bad branch name before writing anything', async () => {
    const empty = (await fx.root.Projects.create({ name: 'branches-empty-bad' })) as { id: number };
    const answer = await fx.call('POST', `/projects/${empty.id}/repository/branches`, { body: { branch: 'bad..name', ref: 'main' } });
    expect(answer.status).toBe(400);
    expect(await fx.bareGit(empty.id, ['for-each-ref'])).toBe('');
  });
});
