import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel, type Visibility } from '@tributary/contracts';
import { testDatabaseKind } from '../test-support/database.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import { createProjectsRepository } from '../domains/projects/projects.repository.js';
import { actorFor, ANONYMOUS, type Actor } from './actor.js';
import { namespaceReadableSql, projectReadableSql } from './readable-sql.js';

const CALLER = { user: '$1::bigint', admin: '$2::boolean' };

/**
 * The readable-projects SQL (auth/readable-sql.ts) answers exactly what the permission
 * function answers, for every caller and project of an access matrix: anonymous, a stranger,
 * an administrator, Guests, Reporters and Developers of a project directly, through its group
 * and through a parent group, an expired member, and the owner of a personal namespace;
 * private, internal and public projects and groups.
 */
describe(`readable projects in SQL agree with the permission function (${testDatabaseKind()})`, () => {
  let server: TestServer;
  const callers: Array<[string, Actor]> = [];
  const projectIds: number[] = [];
  const groupIds: number[] = [];

  async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'private-token': server.root.token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<T>;
  }

  const user = async (name: string) => {
    const created = await server.createUser({ username: name });
    return (await server.app.services.usersRepository.findById(created.id))!;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const top = await api('POST', '/groups', { name: 'Matrix', path: 'matrix', visibility: 'public' });
    const sub = await api('POST', '/groups', { name: 'Inner', path: 'inner', parent_id: top.id, visibility: 'internal' });
    const closed = await api('POST', '/groups', { name: 'Closed', path: 'closed', visibility: 'private' });
    groupIds.push(top.id, sub.id, closed.id);
    const visibilities: Visibility[] = ['private', 'internal', 'public'];
    for (const visibility of visibilities) {
      projectIds.push((await api('POST', '/projects', { name: `top-${visibility}`, namespace_id: top.id, visibility })).id);
      projectIds.push((await api('POST', '/projects', { name: `mine-${visibility}`, visibility })).id);
    }
    for (const visibility of ['private', 'internal'] as const) projectIds.push((await api('POST', '/projects', { name: `inner-${visibility}`, namespace_id: sub.id, visibility })).id);
    projectIds.push((await api('POST', '/projects', { name: 'closed-private', namespace_id: closed.id, visibility: 'private' })).id);
    // Feature levels: a members-only or disabled repository or merge requests feature.
    const features: Array<[Visibility, Record<string, string>]> = [
      ['public', { repository_access_level: 'private', merge_requests_access_level: 'private', builds_access_level: 'private' }],
      ['public', { merge_requests_access_level: 'private' }],
      ['internal', { merge_requests_access_level: 'disabled' }],
      ['private', { merge_requests_access_level: 'private' }],
      ['private', { repository_access_level: 'private', merge_requests_access_level: 'disabled', builds_access_level: 'disabled' }],
      ['public', { repository_access_level: 'disabled', merge_requests_access_level: 'disabled', builds_access_level: 'disabled' }],
    ];
    for (const [index, [visibility, levels]] of features.entries()) {
      projectIds.push((await api('POST', '/projects', { name: `feature-${index}`, namespace_id: top.id, visibility, ...levels })).id);
    }
    const privateInTop = projectIds[0]!;

    callers.push(['anonymous', { ...ANONYMOUS, accessCache: new Map() }]);
    callers.push(['a stranger', actorFor(await user('matrix-stranger'), 'session')]);
    callers.push(['an administrator', actorFor((await server.app.services.usersRepository.findById(server.root.id))!, 'session')]);
    for (const [role, level] of [['Guest', AccessLevel.Guest], ['Reporter', AccessLevel.Reporter], ['Developer', AccessLevel.Developer]] as const) {
      const direct = await user(`matrix-project-${role.toLowerCase()}`);
      await api('POST', `/projects/${privateInTop}/members`, { user_id: direct.id, access_level: level });
      callers.push([`a ${role} of a private project`, actorFor(direct, 'session')]);
      const inherited = await user(`matrix-group-${role.toLowerCase()}`);
      await api('POST', `/groups/${top.id}/members`, { user_id: inherited.id, access_level: level });
      callers.push([`a ${role} of the top group`, actorFor(inherited, 'session')]);
      const inner = await user(`matrix-inner-${role.toLowerCase()}`);
      await api('POST', `/groups/${sub.id}/members`, { user_id: inner.id, access_level: level });
      callers.push([`a ${role} of the subgroup`, actorFor(inner, 'session')]);
    }
    const expired = await user('matrix-expired');
    await api('POST', `/projects/${privateInTop}/members`, { user_id: expired.id, access_level: AccessLevel.Developer });
    await api('POST', `/groups/${closed.id}/members`, { user_id: expired.id, access_level: AccessLevel.Developer });
    await server.app.db.query('UPDATE project_members SET expires_at = current_date - 1 WHERE user_id = $1', [expired.id]);
    await server.app.db.query('UPDATE group_members SET expires_at = current_date - 1 WHERE user_id = $1', [expired.id]);
    callers.push(['an expired member', actorFor(expired, 'session')]);
  });
  afterAll(() => server?.close());

  async function readableBySql(sql: string, from: string, actor: Actor): Promise<number[]> {
    const { rows } = await server.app.db.query<{ id: number }>(`SELECT ${from.startsWith('projects') ? 'p' : 'n'}.id FROM ${from} WHERE ${sql} ORDER BY 1`, [
      actor.user?.id ?? null,
      actor.user?.is_admin === true,
    ]);
    return rows.map((row) => Number(row.id));
  }

  it('read_project, download_code and read_merge_request: the SQL finds exactly the projects the permission function grants', async () => {
    const projects = createProjectsRepository(server.app.db);
    const from = 'projects p JOIN namespaces n ON n.id = p.namespace_id';
    for (const [who, actor] of callers) {
      for (const ability of ['read_project', 'download_code', 'read_merge_request'] as const) {
        const expected: number[] = [];
        for (const id of projectIds) {
          const project = (await projects.findById(id))!;
          if (await server.app.authorizer.can(actor, ability, { project })) expected.push(id);
        }
        const found = (await readableBySql(projectReadableSql(ability, CALLER), from, actor)).filter((id) => projectIds.includes(id));
        expect(found, `${who}: ${ability}`).toEqual(expected.sort((a, b) => a - b));
      }
    }
  });

  it('groups: the SQL finds exactly the groups the permission function lets the caller read', async () => {
    for (const [who, actor] of callers) {
      const expected: number[] = [];
      for (const id of groupIds) {
        const group = (await server.app.services.namespaces.findById(id))!;
        if (await server.app.authorizer.canRead(actor, { group })) expected.push(id);
      }
      const found = (await readableBySql(namespaceReadableSql(CALLER), 'namespaces n', actor)).filter((id) => groupIds.includes(id));
      expect(found, who).toEqual(expected.sort((a, b) => a - b));
    }
  });
});
