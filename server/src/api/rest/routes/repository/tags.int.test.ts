import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** GET/POST/DELETE /projects/:id/repository/tags(/:tag_name), through gitbeaker where it covers them. */
describe(`repository tags API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let mainSha: string;
  const tagRefs = () => fx.bareGit(project.id, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/tags/']);

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('tags-api');
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
    mainSha = await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main']);
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('creates an annotated tag with a message (a git tag object by the caller) and shows it', async () => {
    const api = gitbeakerClient(fx.server.url, developer.token);
    const tag = await api.Tags.create(project.id, 'v1.0.0', 'main', { message: '  First release\n' });
    expect(tag).toMatchObject({ name: 'v1.0.0', message: 'First release', protected: false, release: null, commit: { id: mainSha } });
    expect(tag.target).not.toBe(mainSha);
    expect(await fx.bareGit(project.id, ['cat-file', '-t', 'refs/tags/v1.0.0'])).toBe('tag');
    expect(await fx.bareGit(project.id, ['cat-file', '-p', 'refs/tags/v1.0.0'])).toContain(`tagger ${developer.username}`);
    expect(tag.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const shown = await api.Tags.show(project.id, 'v1.0.0');
    expect(shown).toMatchObject({ name: 'v1.0.0', target: tag.target, message: 'First release' });
  });

  it('creates a lightweight tag without a message, with "/" in its name', async () => {
    const tag = await fx.root.Tags.create(project.id, 'releases/v1', mainSha);
    expect(tag).toMatchObject({ name: 'releases/v1', target: mainSha, message: null, created_at: null });
    const encoded = await fx.call('GET', `/projects/${project.id}/repository/tags/releases%2Fv1`);
    expect(encoded.status).toBe(200);
    expect(encoded.headers.get('content-type')).toBe('application/json');
  });

  it('refuses bad input with GitLab 400s and changes nothing', async () => {
    const before = await tagRefs();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tag_name: 'bad..name', ref: 'main' }, 'Tag name invalid'],
      [{ tag_name: '-x', ref: 'main' }, 'Tag name invalid'],
      [{ tag_name: 'v2', ref: 'no-such-branch' }, 'Target no-such-branch is invalid'],
      [{ tag_name: 'v1.0.0', ref: 'main' }, 'Tag v1.0.0 already exists'],
    ];
    for (const [body, message] of cases) {
      const answer = await fx.call('POST', `/projects/${project.id}/repository/tags`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toEqual({ message });
    }
    const missing = await fx.call('POST', `/projects/${project.id}/repository/tags`, { body: { ref: 'main' } });
    expect(missing.status).toBe(400);
    expect(await tagRefs()).toBe(before);
  });

  it('refuses a stranger (404) and a Reporter (403), and nobody signed out', async () => {
    const before = await tagRefs();
    const asStranger = await fx.call('POST', `/projects/${project.id}/repository/tags`, { token: stranger.token, body: { tag_name: 's1', ref: 'main' } });
    expect(asStranger.status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}/repository/tags/v1.0.0`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('DELETE', `/projects/${project.id}/repository/tags/v1.0.0`, { token: stranger.token })).status).toBe(404);
    const asReporter = await fx.call('POST', `/projects/${project.id}/repository/tags`, { token: reporter.token, body: { tag_name: 'r1', ref: 'main' } });
    expect(asReporter.status).toBe(403);
    expect((await fx.call('DELETE', `/projects/${project.id}/repository/tags/v1.0.0`, { token: reporter.token })).status).toBe(403);
    expect((await fx.call('POST', `/projects/${project.id}/repository/tags`, { token: null, body: { tag_name: 'a1', ref: 'main' } })).status).toBe(401);
    expect(await tagRefs()).toBe(before);
    // a Reporter still reads tags
    expect((await fx.call('GET', `/projects/${project.id}/repository/tags/v1.0.0`, { token: reporter.token })).status).toBe(200);
  });

  it('deletes a tag (204), then answers 404 Tag Not Found', async () => {
    const api = gitbeakerClient(fx.server.url, developer.token);
    await api.Tags.remove(project.id, 'releases/v1');
    expect(await tagRefs()).not.toContain('refs/tags/releases/v1');
    const again = await fx.call('DELETE', `/projects/${project.id}/repository/tags/releases%2Fv1`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Tag Not Found' });
    expect((await fx.call('GET', `/projects/${project.id}/repository/tags/nope`)).body).toEqual({ message: '404 Tag Not Found' });
  });
});
