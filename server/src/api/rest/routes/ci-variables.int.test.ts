import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variablesForJob } from '../../../domains/ci-variables/variables-for-job.js';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';

const KEY_RULE = "can contain only letters, digits and '_'.";
const MULTIPLE = "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'";

/** /projects/:id/variables, /groups/:id/variables and /admin/ci/variables through gitbeaker and plain calls. */
describe(`CI/CD variables (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let publicProject: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let maintainer: TestUser;
  let stranger: TestUser;
  let groupId: number;
  let subgroupId: number;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('variables');
    publicProject = await fx.createProject('public-variables', { visibility: 'public' });
    developer = await fx.member(project.id, 30);
    maintainer = await fx.member(project.id, 40);
    stranger = await fx.server.createUser();
    groupId = (await fx.root.Groups.create('Variables Group', 'variables-group', { visibility: 'private' })).id as number;
    subgroupId = (await fx.root.Groups.create('Sub', 'sub', { parentId: groupId, visibility: 'private' })).id as number;
  });
  afterAll(() => fx?.close());

  it('creates, lists, shows, updates and deletes a project variable in GitLab\'s shape (gitbeaker)', async () => {
    const created = await fx.root.ProjectVariables.create(project.id, 'DEPLOY_TOKEN', 'abcdEFGH1234', { masked: true, protected: true, description: 'for deploys' } as never);
    expect(created).toEqual({
      variable_type: 'env_var',
      key: 'DEPLOY_TOKEN',
      value: 'abcdEFGH1234',
      hidden: false,
      protected: true,
      masked: true,
      raw: false,
      environment_scope: '*',
      description: 'for deploys',
    });
    const list = await fx.call('GET', `/projects/${project.id}/variables`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe('1');
    expect(list.body.map((v: { key: string }) => v.key)).toEqual(['DEPLOY_TOKEN']);
    expect(await fx.root.ProjectVariables.show(project.id, 'DEPLOY_TOKEN')).toMatchObject({ value: 'abcdEFGH1234' });
    const edited = await fx.root.ProjectVariables.edit(project.id, 'DEPLOY_TOKEN', 'newValue9876', { variableType: 'file', protected: false } as never);
    expect(edited).toMatchObject({ key: 'DEPLOY_TOKEN', value: 'newValue9876', variable_type: 'file', protected: false, masked: true, description: 'for deploys' });
    await fx.root.ProjectVariables.remove(project.id, 'DEPLOY_TOKEN');
    expect(await fx.call('GET', `/projects/${project.id}/variables/DEPLOY_TOKEN`)).toMatchObject({ status: 404, body: { message: '404 Variable Not Found' } });
  });

  it('keeps one key per environment scope and picks one with filter[environment_scope]', async () => {
    await fx.root.ProjectVariables.create(project.id, 'SCOPED', 'any');
    await fx.root.ProjectVariables.create(project.id, 'SCOPED', 'prod', { environmentScope: 'production' } as never);
    const duplicate = await fx.call('POST', `/projects/${project.id}/variables`, { body: { key: 'SCOPED', value: 'again', environment_scope: 'production' } });
    expect(duplicate).toMatchObject({ status: 400, body: { message: { key: ['(SCOPED) has already been taken'] } } });

    expect(await fx.call('GET', `/projects/${project.id}/variables/SCOPED`)).toMatchObject({ status: 409, body: { message: MULTIPLE } });
    expect((await fx.call('GET', `/projects/${project.id}/variables/SCOPED?filter[environment_scope]=production`)).body).toMatchObject({ value: 'prod' });
    expect(await fx.root.ProjectVariables.show(project.id, 'SCOPED', { filter: { environment_scope: '*' } } as never)).toMatchObject({ value: 'any' });
    // moving the production one onto * clashes with the other
    const clash = await fx.call('PUT', `/projects/${project.id}/variables/SCOPED?filter[environment_scope]=production`, { body: { environment_scope: '*' } });
    expect(clash).toMatchObject({ status: 400, body: { message: { key: ['(SCOPED) has already been taken'] } } });
    // GitLab's documented form: the value in the query string
    const updated = await fx.call('PUT', `/projects/${project.id}/variables/SCOPED?value=prod2&environment_scope=review/*&filter[environment_scope]=production`);
    expect(updated).toMatchObject({ status: 200, body: { value: 'prod2', environment_scope: 'review/*' } });
    expect((await fx.call('DELETE', `/projects/${project.id}/variables/SCOPED`)).status).toBe(409);
    expect((await fx.call('DELETE', `/projects/${project.id}/variables/SCOPED?filter[environment_scope]=review/*`)).status).toBe(204);
    expect((await fx.call('DELETE', `/projects/${project.id}/variables/SCOPED`)).status).toBe(204);
  });

  it('answers GitLab\'s validation messages with 400 and stores nothing', async () => {
    const cases: [unknown, unknown][] = [
      [{ key: 'MY-KEY', value: 'x' }, { key: [KEY_RULE] }],
      [{ key: 'K'.repeat(256), value: 'x' }, { key: ['is too long (maximum is 255 characters)'] }],
      [{ key: 'SHORT', value: 'short', masked: true }, { value: ['is invalid'] }],
      [{ key: 'SPACE', value: 'has a space in it', masked: true }, { value: ['is invalid'] }],
      [{ key: 'MULTI', value: 'line-one\nline-two', masked: true }, { value: ['is invalid'] }],
      [{ key: 'BANG', value: 'hello!!!world', masked: true }, { value: ['is invalid'] }],
      [{ key: 'SCOPE', value: 'x', environment_scope: 'prod!' }, { environment_scope: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"] }],
    ];
    for (const [body, message] of cases) {
      const response = await fx.call('POST', `/projects/${project.id}/variables`, { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toEqual({ message });
    }
    expect((await fx.call('POST', `/projects/${project.id}/variables`, { body: { value: 'x' } })).status).toBe(400);
    expect((await fx.call('POST', `/projects/${project.id}/variables`, { body: { key: 'T', value: 'x', variable_type: 'secret' } })).status).toBe(400);
    // a raw masked value may use characters outside Base64
    expect((await fx.call('POST', `/projects/${project.id}/variables`, { body: { key: 'RAW', value: 'Hello%#^World', masked: true, raw: true } })).status).toBe(201);
    expect((await fx.call('GET', `/projects/${project.id}/variables`)).body.map((v: { key: string }) => v.key)).toEqual(['RAW']);
    await fx.root.ProjectVariables.remove(project.id, 'RAW');
  });

  it('hides a masked_and_hidden value for good: null in every answer, hidden cannot change', async () => {
    const created = await fx.call('POST', `/projects/${project.id}/variables`, { body: { key: 'HIDDEN', value: 'hiddenValue1', masked_and_hidden: true } });
    expect(created).toMatchObject({ status: 201, body: { key: 'HIDDEN', value: null, hidden: true, masked: true } });
    expect((await fx.call('GET', `/projects/${project.id}/variables/HIDDEN`)).body.value).toBeNull();
    expect((await fx.call('GET', `/projects/${project.id}/variables`)).body[0].value).toBeNull();
    const unmask = await fx.call('PUT', `/projects/${project.id}/variables/HIDDEN`, { body: { masked: false } });
    expect(unmask).toMatchObject({ status: 400, body: { message: { base: ['The visibility setting cannot be changed for masked and hidden variables.'] } } });
    expect((await fx.call('PUT', `/projects/${project.id}/variables/HIDDEN`, { body: { value: 'otherValue22' } })).body).toMatchObject({ value: null, hidden: true });
    // the pipelines engine still gets the value
    const sources = await fx.server.app.services.ciVariables.jobVariableSources({ id: project.id, namespace_kind: 'user', namespace_traversal_ids: [] });
    expect(sources.project.find((v) => v.key === 'HIDDEN')?.value).toBe('otherValue22');
    await fx.root.ProjectVariables.remove(project.id, 'HIDDEN');
  });

  it('lets Maintainers manage; refuses Developers (403), strangers of a private project (404) and anonymous callers (401)', async () => {
    expect((await fx.call('POST', `/projects/${project.id}/variables`, { token: maintainer.token, body: { key: 'BY_MAINTAINER', value: 'm' } })).status).toBe(201);
    for (const [method, path] of [
      ['GET', `/projects/${project.id}/variables`],
      ['GET', `/projects/${project.id}/variables/BY_MAINTAINER`],
      ['POST', `/projects/${project.id}/variables`],
      ['PUT', `/projects/${project.id}/variables/BY_MAINTAINER`],
      ['DELETE', `/projects/${project.id}/variables/BY_MAINTAINER`],
    ] as const) {
      const body = method === 'POST' ? { key: 'NOPE', value: 'x' } : method === 'PUT' ? { value: 'changed' } : undefined;
      expect((await fx.call(method, path, { token: developer.token, body })).status, `developer ${method} ${path}`).toBe(403);
      expect((await fx.call(method, path, { token: stranger.token, body })).status, `stranger ${method} ${path}`).toBe(404);
      expect((await fx.call(method, path, { token: null, body })).status, `anonymous ${method} ${path}`).toBe(401);
    }
    // a public project is seen by everyone, managed by its Maintainers only
    expect((await fx.call('GET', `/projects/${publicProject.id}/variables`, { token: stranger.token })).status).toBe(403);
    expect((await fx.call('GET', `/projects/${project.id}/variables/BY_MAINTAINER`, { token: maintainer.token })).body.value).toBe('m');
  });

  it('manages group variables as the group\'s Owner; Maintainers get 403, strangers 404', async () => {
    const created = await fx.root.GroupVariables.create(groupId, 'GROUP_VAR', 'top', { environmentScope: '*' } as never);
    expect(created).toMatchObject({ key: 'GROUP_VAR', value: 'top', hidden: false, environment_scope: '*' });
    await fx.root.GroupVariables.create(subgroupId, 'GROUP_VAR', 'sub');
    expect((await fx.root.GroupVariables.all(subgroupId)).map((v) => v.value)).toEqual(['sub']);
    expect(await fx.call('GET', `/groups/${groupId}/variables/NOPE`)).toMatchObject({ status: 404, body: { message: '404 GroupVariable Not Found' } });
    const groupMaintainer = await fx.server.createUser();
    await fx.root.GroupMembers.add(groupId, 40, { userId: groupMaintainer.id });
    expect((await fx.call('GET', `/groups/${groupId}/variables`, { token: groupMaintainer.token })).status).toBe(403);
    expect((await fx.call('POST', `/groups/${groupId}/variables`, { token: groupMaintainer.token, body: { key: 'X', value: 'y' } })).status).toBe(403);
    expect((await fx.call('GET', `/groups/${groupId}/variables`, { token: stranger.token })).status).toBe(404);
    const owner = await fx.server.createUser();
    await fx.root.GroupMembers.add(groupId, 50, { userId: owner.id });
    expect((await fx.call('PUT', `/groups/${groupId}/variables/GROUP_VAR`, { token: owner.token, body: { value: 'top2' } })).body).toMatchObject({ value: 'top2' });
    // an Owner of the parent owns the subgroup too
    expect((await fx.call('GET', `/groups/${subgroupId}/variables`, { token: owner.token })).status).toBe(200);
  });

  it('manages instance variables as an administrator only, without scope or hidden fields', async () => {
    const created = await fx.root.InstanceLevelCICDVariables.create('INSTANCE_VAR', 'everywhere', { protected: true } as never);
    expect(created).toEqual({ variable_type: 'env_var', key: 'INSTANCE_VAR', value: 'everywhere', protected: true, masked: false, raw: false, description: null });
    expect((await fx.call('POST', '/admin/ci/variables', { body: { key: 'INSTANCE_VAR', value: 'x' } })).body).toEqual({ message: { key: ['(INSTANCE_VAR) has already been taken'] } });
    const tooLong = await fx.call('POST', '/admin/ci/variables', { body: { key: 'BIG', value: 'v'.repeat(10_001) } });
    expect(tooLong).toMatchObject({ status: 400, body: { message: { value: ['The value of the provided variable exceeds the 10000 character limit'] } } });
    expect((await fx.call('GET', '/admin/ci/variables', { token: maintainer.token })).status).toBe(403);
    expect((await fx.call('POST', '/admin/ci/variables', { token: stranger.token, body: { key: 'Y', value: 'y' } })).status).toBe(403);
    expect((await fx.call('GET', '/admin/ci/variables', { token: null })).status).toBe(401);
    expect(await fx.call('GET', '/admin/ci/variables/NOPE')).toMatchObject({ status: 404, body: { message: '404 InstanceVariable Not Found' } });
    expect((await fx.root.InstanceLevelCICDVariables.edit('INSTANCE_VAR', 'changed')).value).toBe('changed');
  });

  it('feeds variablesForJob from the stored variables: instance < groups (nearest wins) < project, protected only on protected refs', async () => {
    const subProject = await fx.root.Projects.create({ name: 'in-sub', namespaceId: subgroupId });
    await fx.root.ProjectVariables.create(subProject.id as number, 'PROJECT_ONLY', 'p');
    await fx.root.ProjectVariables.create(subProject.id as number, 'PROTECTED_ONE', 'secret', { protected: true } as never);
    const projectRow = await fx.server.app.services.projects.find({ user: { id: fx.server.root.id, is_admin: true } } as never, subProject.id as number);
    const sources = await fx.server.app.services.ciVariables.jobVariableSources(projectRow);
    const values = (refProtected: boolean) => Object.fromEntries(variablesForJob({ ...sources, refProtected, environment: null, fromFork: false }).map((v) => [v.key, v.value]));
    expect(values(false)).toEqual({ GROUP_VAR: 'sub', PROJECT_ONLY: 'p' });
    expect(values(true)).toEqual({ INSTANCE_VAR: 'changed', GROUP_VAR: 'sub', PROJECT_ONLY: 'p', PROTECTED_ONE: 'secret' });
    const forFork = await fx.server.app.services.ciVariables.jobVariables(projectRow, { refProtected: true, environment: null, fromFork: true, pipeline: [{ key: 'PROJECT_ONLY', value: 'from-pipeline' }] });
    expect(Object.fromEntries(forFork.map((v) => [v.key, v.value]))).toEqual({ GROUP_VAR: 'sub', PROJECT_ONLY: 'from-pipeline' });
  });
});
