import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** /projects/:id/protected_branches through gitbeaker (POST in the query string, PATCH for edits). */
describe(`protected branches API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number };
  let developer: TestUser;
  let maintainer: TestUser;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('protected-api');
    developer = await fx.member(project.id, 30);
    maintainer = await fx.member(project.id, 40);
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('lists the default branch protection every new project gets', async () => {
    const all = await fx.root.ProtectedBranches.all(project.id);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      name: 'main',
      allow_force_push: false,
      code_owner_approval_required: false,
      push_access_levels: [{ access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null, deploy_key_id: null }],
      merge_access_levels: [{ access_level: 40, access_level_description: 'Maintainers' }],
      unprotect_access_levels: [{ access_level: 40 }],
    });
    expect(typeof (all[0]!.push_access_levels as Array<{ id: number }>)[0]!.id).toBe('number');
  });

  it('protects a wildcard with role levels and a user grant (201)', async () => {
    const created = await fx.root.ProtectedBranches.create(project.id, 'release/*', {
      pushAccessLevel: 30,
      mergeAccessLevel: 40,
      allowForcePush: true,
      allowedToMerge: [{ user_id: developer.id }],
    } as never);
    expect(created).toMatchObject({
      name: 'release/*',
      allow_force_push: true,
      push_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }],
    });
    const merge = created.merge_access_levels as Array<{ access_level: number | null; user_id: number | null; access_level_description: string }>;
    expect(merge).toHaveLength(2);
    expect(merge.find((item) => item.user_id === developer.id)?.access_level_description).toBe(developer.username);
    const shown = await fx.root.ProtectedBranches.show(project.id, 'release/*');
    expect(shown.id).toBe(created.id);
  });

  it('answers 409 for a name already protected', async () => {
    const again = await fx.call('POST', `/projects/${project.id}/protected_branches?name=main`);
    expect(again).toMatchObject({ status: 409, body: { message: "Protected branch 'main' already exists" } });
  });

  it('refuses invalid access levels and unknown users (400)', async () => {
    const level = await fx.call('POST', `/projects/${project.id}/protected_branches?name=x&push_access_level=20`);
    expect(level.status).toBe(400);
    const user = await fx.call('POST', `/projects/${project.id}/protected_branches?name=x&allowed_to_push[0][user_id]=999999`);
    expect(user.status).toBe(400);
    const missing = await fx.call('POST', `/projects/${project.id}/protected_branches`);
    expect(missing.status).toBe(400);
    expect((await fx.call('GET', `/projects/${project.id}/protected_branches/x`)).status).toBe(404);
  });

  it('edits with PATCH: flags, role level, _destroy and new items', async () => {
    const before = await fx.root.ProtectedBranches.show(project.id, 'release/*');
    const userGrant = (before.merge_access_levels as Array<{ id: number; user_id: number | null }>).find((item) => item.user_id === developer.id)!;
    const edited = await fx.call('PATCH', `/projects/${project.id}/protected_branches/release%2F*`, {
      body: {
        allow_force_push: false,
        code_owner_approval_required: true,
        push_access_level: 40,
        allowed_to_merge: [{ id: userGrant.id, _destroy: true }],
        allowed_to_push: [{ user_id: maintainer.id }],
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'release/*', allow_force_push: false, code_owner_approval_required: true });
    expect(edited.body.merge_access_levels).toHaveLength(1);
    expect(edited.body.push_access_levels.map((item: { access_level: number | null; user_id: number | null }) => [item.access_level, item.user_id])).toEqual(
      expect.arrayContaining([
        [40, null],
        [null, maintainer.id],
      ]),
    );
    const viaGitbeaker = await fx.root.ProtectedBranches.edit(project.id, 'release/*', { allowForcePush: true });
    expect(viaGitbeaker.allow_force_push).toBe(true);
  });

  it('requires Maintainer: Developers get 403, strangers 404', async () => {
    const asDeveloper = await fx.call('GET', `/projects/${project.id}/protected_branches`, { token: developer.token });
    expect(asDeveloper.status).toBe(403);
    const create = await fx.call('POST', `/projects/${project.id}/protected_branches?name=dev-made`, { token: developer.token });
    expect(create.status).toBe(403);
    const stranger = await fx.server.createUser();
    expect((await fx.call('GET', `/projects/${project.id}/protected_branches`, { token: stranger.token })).status).toBe(404);
    const asMaintainer = gitbeakerClient(fx.server.url, maintainer.token);
    expect((await asMaintainer.ProtectedBranches.all(project.id)).length).toBeGreaterThanOrEqual(2);
  });

  it('honours unprotect rules: "No one" keeps even Maintainers from unprotecting', async () => {
    await fx.root.ProtectedBranches.create(project.id, 'locked', { unprotectAccessLevel: 0 } as never);
    const refused = await fx.call('DELETE', `/projects/${project.id}/protected_branches/locked`, { token: maintainer.token });
    expect(refused.status).toBe(403);
  });

  it('unprotects (204) and paginates the list with search', async () => {
    await fx.root.ProtectedBranches.remove(project.id, 'release/*');
    expect((await fx.call('GET', `/projects/${project.id}/protected_branches/release%2F*`)).status).toBe(404);
    const searched = await fx.call('GET', `/projects/${project.id}/protected_branches?search=MAI&per_page=1`);
    expect(searched.status).toBe(200);
    expect(searched.body.map((p: { name: string }) => p.name)).toEqual(['main']);
    expect(searched.headers.get('x-total')).toBe('1');
  });
});
