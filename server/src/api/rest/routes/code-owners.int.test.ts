import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../test-support/merge-request-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';

interface StateRule {
  name: string;
  rule_type: string;
  section: string | null;
  approvals_required: number;
  approved: boolean;
  eligible_approvers: Array<{ username: string }>;
}

/**
 * CODEOWNERS in approvals, with the server's real git: the target branch's file matched against
 * the merge request's changed paths gives one code owner rule per owning entry (owners resolved
 * by username, group path, email and role); the rules block the merge only where the protected
 * branch requires code owner approval; a push removes only the approvals of the owners of the
 * files it changed when the selective setting is on. And the file view's owners endpoint.
 */
describe(`code owners (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let counter = 0;

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
  });
  afterAll(() => fx?.close());

  async function memberWith(projectId: number, accessLevel: number, input: { email?: string } = {}): Promise<TestUser> {
    const user = await fx.server.createUser(input);
    await fx.root.ProjectMembers.add(projectId, accessLevel, { userId: user.id });
    return user;
  }

  async function setup() {
    const n = ++counter;
    const project = await fx.createProject(`owners-${n}`);
    const alice = await memberWith(project.id, 30);
    const bob = await memberWith(project.id, 30, { email: `bob-${n}-${process.pid}@example.com` });
    const carol = await memberWith(project.id, 40);
    const dave = await memberWith(project.id, 30);
    const group = (await fx.call('POST', '/groups', { body: { name: `owners-team-${n}`, path: `owners-team-${n}` } })).body as { id: number; full_path: string };
    expect((await fx.call('POST', `/groups/${group.id}/members`, { body: { user_id: dave.id, access_level: 30 } })).status).toBe(201);
    const codeowners = [
      '[Backend]',
      `backend/ @${alice.username}`,
      '^[Docs]',
      `docs/ @${group.full_path}`,
      '[Ops][2]',
      `ops/ bob-${n}-${process.pid}@example.com @@maintainer`,
      '',
    ].join('\n');
    await fx.root.Commits.create(project.id, 'main', 'Add CODEOWNERS', [
      { action: 'create', filePath: 'CODEOWNERS', content: codeowners },
      { action: 'create', filePath: 'backend/app.rb', content: 'one\n' },
      { action: 'create', filePath: 'docs/guide.md', content: 'one\n' },
      { action: 'create', filePath: 'ops/deploy.sh', content: 'one\n' },
    ]);
    await fx.root.Commits.create(project.id, 'topic', 'Change owned files', [
      { action: 'update', filePath: 'backend/app.rb', content: 'two\n' },
      { action: 'update', filePath: 'docs/guide.md', content: 'two\n' },
      { action: 'update', filePath: 'ops/deploy.sh', content: 'two\n' },
      { action: 'create', filePath: 'unowned.txt', content: 'two\n' },
    ], { startBranch: 'main' });
    const mr = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Owned changes');
    const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    await eventually(async () => ['mergeable', 'not_approved'].includes((await fx.call('GET', path)).body.detailed_merge_status));
    return { project, path, alice, bob, carol, dave, group };
  }

  const codeOwnerRules = async (path: string) =>
    ((await fx.call('GET', `${path}/approval_state`)).body.rules as StateRule[])
      .filter((rule) => rule.rule_type === 'code_owner')
      .map((rule) => ({ name: rule.name, section: rule.section, required: rule.approvals_required, approved: rule.approved, approvers: rule.eligible_approvers.map((user) => user.username).sort() }));

  async function requireCodeOwnerApproval(projectId: number) {
    const patched = await fx.call('PATCH', `/projects/${projectId}/protected_branches/main`, { body: { code_owner_approval_required: true } });
    if (patched.status === 404) {
      const created = await fx.call('POST', `/projects/${projectId}/protected_branches`, { body: { name: 'main', code_owner_approval_required: true } });
      expect(created.status).toBe(201);
      expect(created.body.code_owner_approval_required).toBe(true);
    } else {
      expect(patched.status).toBe(200);
      expect(patched.body.code_owner_approval_required).toBe(true);
    }
  }

  it('makes one rule per owning entry, with its owners, optional while the branch does not require code owner approval', async () => {
    const { path, alice, bob, carol, dave } = await setup();
    expect(await codeOwnerRules(path)).toEqual([
      { name: 'backend/', section: 'Backend', required: 0, approved: true, approvers: [alice.username] },
      { name: 'docs/', section: 'Docs', required: 0, approved: true, approvers: [dave.username] },
      { name: 'ops/', section: 'Ops', required: 0, approved: true, approvers: [bob.username, carol.username].sort() },
    ]);
    expect((await fx.call('GET', path)).body.detailed_merge_status).toBe('mergeable');
  });

  it('blocks the merge when the protected branch requires code owner approval, until the owners approve', async () => {
    const { project, path, alice, bob, carol } = await setup();
    await requireCodeOwnerApproval(project.id);
    expect(await codeOwnerRules(path)).toEqual([
      { name: 'backend/', section: 'Backend', required: 1, approved: false, approvers: [alice.username] },
      // an optional section never requires an approval
      { name: 'docs/', section: 'Docs', required: 0, approved: true, approvers: expect.any(Array) },
      { name: 'ops/', section: 'Ops', required: 2, approved: false, approvers: [bob.username, carol.username].sort() },
    ]);
    await eventually(async () => (await fx.call('GET', path)).body.detailed_merge_status === 'not_approved');
    const head = (await fx.call('GET', path)).body.sha as string;
    expect((await fx.call('PUT', `${path}/merge`, { body: { sha: head } })).status).toBe(405);

    for (const owner of [alice, bob, carol]) expect((await fx.call('POST', `${path}/approve`, { token: owner.token })).status).toBe(201);
    expect((await codeOwnerRules(path)).map((rule) => rule.approved)).toEqual([true, true, true]);
    await eventually(async () => (await fx.call('GET', path)).body.detailed_merge_status === 'mergeable');
    expect((await fx.call('PUT', `${path}/merge`, { body: { sha: head } })).status).toBe(200);
  });

  it('a push changing an owned file removes only that owner’s approval when selective removal is on', async () => {
    const { project, path, alice, bob } = await setup();
    await requireCodeOwnerApproval(project.id);
    const settings = await fx.call('POST', `/projects/${project.id}/approvals`, { body: { reset_approvals_on_push: false, selective_code_owner_removals: true } });
    expect(settings.status).toBe(201);
    for (const owner of [alice, bob]) expect((await fx.call('POST', `${path}/approve`, { token: owner.token })).status).toBe(201);

    const pushed = await fx.root.Commits.create(project.id, 'topic', 'Change the backend again', [{ action: 'update', filePath: 'backend/app.rb', content: 'three\n' }]);
    await eventually(async () => (await fx.call('GET', `${path}/versions`)).body[0]?.head_commit_sha === pushed.id);
    const approvedBy = async () => ((await fx.call('GET', `${path}/approvals`)).body.approved_by as Array<{ user: { username: string } }>).map((entry) => entry.user.username);
    await eventually(async () => !(await approvedBy()).includes(alice.username));
    expect(await approvedBy()).toEqual([bob.username]);
  });

  it('a push that changes only the target branch’s CODEOWNERS moves the cached approval state of its open merge requests', async () => {
    const { project, path, alice, bob, carol, dave } = await setup();
    await requireCodeOwnerApproval(project.id);
    for (const owner of [alice, bob, carol]) expect((await fx.call('POST', `${path}/approve`, { token: owner.token })).status).toBe(201);
    await eventually(async () => (await fx.call('GET', path)).body.detailed_merge_status === 'mergeable');
    // read twice: the answers are now cached until a watched table is written
    expect((await fx.call('GET', path)).body.detailed_merge_status).toBe('mergeable');

    const codeowners = (await fx.root.RepositoryFiles.showRaw(project.id, 'CODEOWNERS', 'main')) as string;
    await fx.root.Commits.create(project.id, 'main', 'Hand the backend to dave', [
      { action: 'update', filePath: 'CODEOWNERS', content: codeowners.replace(`backend/ @${alice.username}`, `backend/ @${dave.username}`) },
    ]);
    await eventually(async () => (await fx.call('GET', path)).body.detailed_merge_status === 'not_approved');
    expect((await codeOwnerRules(path))[0]).toEqual({ name: 'backend/', section: 'Backend', required: 1, approved: false, approvers: [dave.username] });
    expect((await fx.call('GET', `${path}/approvals`)).body.approvals_left).toBe(1);
  });

  it('checks group owners against the groups the project reaches: its group and ancestors, with a member who may approve', async () => {
    const n = ++counter;
    // the parent group's only member is its creator, blocked below: nobody in it may approve
    const founder = await fx.server.createUser();
    const parent = (await fx.call('POST', '/groups', { token: founder.token, body: { name: `reach-${n}`, path: `reach-${n}` } })).body as { id: number; full_path: string };
    const child = (await fx.call('POST', '/groups', { body: { name: 'child', path: 'child', parent_id: parent.id } })).body as { id: number; full_path: string };
    const other = (await fx.call('POST', '/groups', { body: { name: `other-${n}`, path: `other-${n}` } })).body as { id: number; full_path: string };
    const developer = await fx.server.createUser();
    expect((await fx.call('POST', `/groups/${child.id}/members`, { body: { user_id: developer.id, access_level: 30 } })).status).toBe(201);
    expect((await fx.call('POST', `/users/${founder.id}/block`)).status).toBe(201);
    const project = (await fx.call('POST', '/projects', { body: { name: 'reached', path: 'reached', namespace_id: child.id, initialize_with_readme: true } })).body as { id: number; path_with_namespace: string };
    await fx.root.Commits.create(project.id, 'main', 'CODEOWNERS', [
      { action: 'create', filePath: 'CODEOWNERS', content: `a/ @${child.full_path}\nb/ @${parent.full_path}\nc/ @${other.full_path}\nd/ @${developer.username}\n` },
    ]);
    const response = await fetch(`${fx.server.url}/${project.path_with_namespace}/-/code_owners?ref=main&path=CODEOWNERS`, { headers: { 'private-token': fx.server.root.token } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { errors: Array<{ kind: string; line: number }> }).errors.map(({ kind, line }) => ({ kind, line }))).toEqual([
      { kind: 'group_without_eligible_approvers', line: 2 },
      { kind: 'inaccessible_owner', line: 3 },
    ]);
  });

  it('answers the owners of a file and the CODEOWNERS file’s errors by line, and 404 to those who may not read the code', async () => {
    const { project, alice, group } = await setup();
    const reporter = await memberWith(project.id, 20);
    const full = (await fx.root.Projects.show(project.id)).path_with_namespace as string;
    const web = async (token: string | undefined, query: string) => {
      const response = await fetch(`${fx.server.url}/${full}/-/code_owners?${query}`, { headers: { 'private-token': token ?? fx.server.root.token } });
      const text = await response.text();
      return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
    };
    const owned = await web(undefined, 'ref=main&path=backend/app.rb');
    expect(owned.status).toBe(200);
    expect(owned.body).toMatchObject({ codeowners_path: 'CODEOWNERS', errors: null, code_owners: [{ type: 'user', username: alice.username }] });
    const docs = await web(undefined, 'ref=main&path=docs/guide.md');
    expect(docs.body.code_owners).toMatchObject([{ type: 'group', full_path: group.full_path }]);
    expect((await web(undefined, 'ref=main&path=unowned.txt')).body.code_owners).toEqual([]);

    await fx.root.Commits.create(project.id, 'main', 'Break CODEOWNERS', [{ action: 'update', filePath: 'CODEOWNERS', content: `* @${alice.username}\n[Broken][0]\nlib/ not-an-owner\n` }]);
    const errors = await web(undefined, 'ref=main&path=CODEOWNERS');
    expect(errors.body.errors).toEqual([
      { kind: 'invalid_approval_requirement', line: 2, message: 'Less than 1 required approvals' },
      { kind: 'malformed_entry_owner', line: 3, message: 'Malformed owners' },
    ]);

    await fx.root.Commits.create(project.id, 'main', 'Name owners who cannot approve', [
      { action: 'update', filePath: 'CODEOWNERS', content: `* @${alice.username}\ndocs/ @${group.full_path}\nlib/ @nobody-${process.pid}\n[Ops]\nops/ @${reporter.username}\n` },
    ]);
    // the group is not the project's group nor an ancestor: the project does not reach it
    expect((await web(undefined, 'ref=main&path=CODEOWNERS')).body.errors).toEqual([
      { kind: 'inaccessible_owner', line: 2, message: 'Contains owners which are not accessible within the project' },
      { kind: 'inaccessible_owner', line: 3, message: 'Contains owners which are not accessible within the project' },
      { kind: 'owner_without_permission', line: 5, message: 'Contains owners without permission to approve merge requests' },
    ]);

    const stranger = await fx.server.createUser();
    expect((await web(stranger.token, 'ref=main&path=backend/app.rb')).status).toBe(404);
    // a Guest sees the private project but not its code: 403, as the files API answers it
    const guest = await memberWith(project.id, 10);
    expect((await web(guest.token, 'ref=main&path=backend/app.rb')).status).toBe(403);
    expect((await web(undefined, 'ref=no-such-branch&path=backend/app.rb')).status).toBe(404);
    expect((await web(undefined, 'ref=main')).status).toBe(400);
  });
});
