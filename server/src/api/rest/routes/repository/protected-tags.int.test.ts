import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, gitCli, type GitCli, type TestUser } from '../../../../test-support/server.js';

/** /projects/:id/protected_tags through gitbeaker, and the protection enforced on git push and the tags API. */
describe(`protected tags (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let maintainer: TestUser;
  const clis: GitCli[] = [];

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('protected-tags');
    developer = await fx.member(project.id, 30);
    maintainer = await fx.member(project.id, 40);
  });

  afterAll(async () => {
    for (const cli of clis) await cli.close();
    await fx?.close();
  });

  /** A clone of the project as `user`, ready to push tags. */
  async function cloneAs(user: TestUser, dir: string): Promise<{ git: GitCli; push: (...refspecs: string[]) => Promise<{ code: number; stderr: string }> }> {
    const git = gitCli({ url: fx.server.url, username: user.username, password: user.token });
    clis.push(git);
    const url = git.repoUrl(project.path_with_namespace);
    await git.git(['clone', '-q', url, dir]);
    return {
      git,
      push: async (...refspecs) => {
        const result = await git.git(['push', url, ...refspecs], { cwd: dir, allowFailure: true });
        return { code: result.code, stderr: result.stderr };
      },
    };
  }

  it('protects a wildcard (201) and shows it in GitLab\'s shape', async () => {
    const created = await fx.root.ProtectedTags.create(project.id, 'v*', { createAccessLevel: 40 } as never);
    expect(created).toMatchObject({
      name: 'v*',
      create_access_levels: [{ access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null }],
    });
    expect(typeof (created.create_access_levels as Array<{ id: number }>)[0]!.id).toBe('number');
    expect((await fx.root.ProtectedTags.show(project.id, 'v*')).name).toBe('v*');
    const all = await fx.root.ProtectedTags.all(project.id);
    expect(all.map((p) => p.name)).toEqual(['v*']);
  });

  it('protects with allowed_to_create items and defaults to Maintainers', async () => {
    const byUser = await fx.call('POST', `/projects/${project.id}/protected_tags`, { body: { name: 'dev-*', allowed_to_create: [{ user_id: developer.id }, { access_level: 30 }] } });
    expect(byUser.status).toBe(201);
    expect(byUser.body.create_access_levels.map((r: { access_level: number | null; user_id: number | null }) => [r.access_level, r.user_id])).toEqual([
      [null, developer.id],
      [30, null],
    ]);
    const plain = await fx.call('POST', `/projects/${project.id}/protected_tags?name=plain`);
    expect(plain.body.create_access_levels).toMatchObject([{ access_level: 40, access_level_description: 'Maintainers' }]);
    await fx.root.ProtectedTags.remove(project.id, 'plain');
  });

  it('answers 409 for a name already protected, 404 for an unknown one, 400 for bad input, changing nothing', async () => {
    const again = await fx.call('POST', `/projects/${project.id}/protected_tags?name=v*`);
    expect(again).toMatchObject({ status: 409, body: { message: "Protected tag 'v*' already exists" } });
    expect(await fx.call('GET', `/projects/${project.id}/protected_tags/nope`)).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await fx.call('DELETE', `/projects/${project.id}/protected_tags/nope`)).status).toBe(404);
    for (const query of ['name=x&create_access_level=20', 'name=x&create_access_level=60', 'name=x&allowed_to_create[0][user_id]=999999', '', 'name=%20']) {
      const bad = await fx.call('POST', `/projects/${project.id}/protected_tags?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.message ?? bad.body.error, query).toBeTruthy();
    }
    expect((await fx.root.ProtectedTags.all(project.id)).map((p) => p.name).sort()).toEqual(['dev-*', 'v*']);
  });

  it('requires Maintainer: Developers get 403, strangers 404, Maintainers manage', async () => {
    expect((await fx.call('GET', `/projects/${project.id}/protected_tags`, { token: developer.token })).status).toBe(403);
    expect((await fx.call('POST', `/projects/${project.id}/protected_tags?name=mine`, { token: developer.token })).status).toBe(403);
    expect((await fx.call('DELETE', `/projects/${project.id}/protected_tags/v*`, { token: developer.token })).status).toBe(403);
    const stranger = await fx.server.createUser();
    for (const [method, path] of [
      ['GET', `/projects/${project.id}/protected_tags`],
      ['GET', `/projects/${project.id}/protected_tags/v*`],
      ['POST', `/projects/${project.id}/protected_tags?name=theirs`],
      ['DELETE', `/projects/${project.id}/protected_tags/v*`],
    ] as const) {
      expect((await fx.call(method, path, { token: stranger.token })).status, `${method} ${path}`).toBe(404);
    }
    expect((await gitbeakerClient(fx.server.url, maintainer.token).ProtectedTags.all(project.id)).length).toBe(2);
  });

  it('refuses a git push of a protected tag by a Developer and lets a Maintainer push it', async () => {
    const asDeveloper = await cloneAs(developer, 'dev');
    await asDeveloper.git.git(['tag', 'v1.0'], { cwd: 'dev' });
    const refused = await asDeveloper.push('refs/tags/v1.0');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('You are not allowed to create this tag as it is protected.');
    expect(await fx.call('GET', `/projects/${project.id}/repository/tags/v1.0`)).toMatchObject({ status: 404 });

    // an unprotected tag is still the Developer's to push
    await asDeveloper.git.git(['tag', 'nightly'], { cwd: 'dev' });
    expect((await asDeveloper.push('refs/tags/nightly')).code).toBe(0);

    const asMaintainer = await cloneAs(maintainer, 'maint');
    await asMaintainer.git.git(['tag', 'v1.0'], { cwd: 'maint' });
    expect((await asMaintainer.push('refs/tags/v1.0')).code).toBe(0);
    expect(await fx.call('GET', `/projects/${project.id}/repository/tags/v1.0`)).toMatchObject({ status: 200, body: { name: 'v1.0', protected: true } });
    const listed = await fx.root.Tags.all(project.id);
    expect(Object.fromEntries(listed.map((tag) => [tag.name, tag.protected]))).toEqual({ 'v1.0': true, nightly: false });
  });

  it('keeps protected tags from being moved or deleted by git push, even by a Maintainer', async () => {
    const asMaintainer = await cloneAs(maintainer, 'maint2');
    const deleted = await asMaintainer.push(':refs/tags/v1.0');
    expect(deleted.code).not.toBe(0);
    expect(deleted.stderr).toContain('You can only delete protected tags using the web interface.');
    await asMaintainer.git.git(['commit', '-q', '--allow-empty', '-m', 'Next'], { cwd: 'maint2' });
    const moved = await asMaintainer.push('--force', 'HEAD:refs/tags/v1.0');
    expect(moved.code).not.toBe(0);
    expect(moved.stderr).toContain('Protected tags cannot be updated.');
    const asDeveloper = await cloneAs(developer, 'dev2');
    const byDeveloper = await asDeveloper.push(':refs/tags/v1.0');
    expect(byDeveloper.stderr).toContain('You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.');
  });

  it('applies the same rule to the tags API: create refused for a Developer, delete allowed to a Maintainer only', async () => {
    const create = await fx.call('POST', `/projects/${project.id}/repository/tags`, { token: developer.token, body: { tag_name: 'v2.0', ref: 'main' } });
    expect(create).toMatchObject({ status: 403, body: { message: 'You are not allowed to create this tag as it is protected.' } });
    const allowedByUserGrant = await fx.call('POST', `/projects/${project.id}/repository/tags`, { token: developer.token, body: { tag_name: 'dev-1', ref: 'main' } });
    expect(allowedByUserGrant.status).toBe(201);
    const byDeveloper = await fx.call('DELETE', `/projects/${project.id}/repository/tags/dev-1`, { token: developer.token });
    expect(byDeveloper).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.' },
    });
    expect((await fx.call('DELETE', `/projects/${project.id}/repository/tags/v1.0`, { token: maintainer.token })).status).toBe(204);
  });

  it('unprotects (204): the tag is then anyone\'s with push rights', async () => {
    await gitbeakerClient(fx.server.url, maintainer.token).ProtectedTags.remove(project.id, 'v*');
    expect((await fx.call('GET', `/projects/${project.id}/protected_tags/v*`)).status).toBe(404);
    const create = await fx.call('POST', `/projects/${project.id}/repository/tags`, { token: developer.token, body: { tag_name: 'v2.0', ref: 'main' } });
    expect(create.status).toBe(201);
  });
});
