import { randomBytes } from 'node:crypto';
import type { TestServer, TestUser } from './server.js';
import { api } from './http.js';

/**
 * Shared fixtures: unique names, groups and projects created through the
 * REST API (as a GitLab client would), and a cast of users holding each role.
 */

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public'];

/** GitLab's member roles and their access levels (doc/api/members.md). */
export const ROLE_LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
export type Role = keyof typeof ROLE_LEVELS;

let counter = 0;
/** A short name no other test uses: `prefix-<pid>-<n>-<random>`. */
export function unique(prefix: string): string {
  return `${prefix}-${process.pid}-${++counter}-${randomBytes(3).toString('hex')}`;
}

export interface GroupInfo {
  id: number;
  full_path: string;
  name: string;
  visibility: Visibility;
}

export interface ProjectInfo {
  id: number;
  name: string;
  path_with_namespace: string;
  visibility: Visibility;
  default_branch: string;
  empty_repo: boolean;
}

async function expectCreated<T>(what: string, promise: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const response = await promise;
  if (response.status !== 201) throw new Error(`creating ${what} answered ${response.status}: ${response.text}`);
  return response.body;
}

export function createGroup(server: TestServer, token: string, options: { visibility?: Visibility; parentId?: number; path?: string } = {}): Promise<GroupInfo> {
  const path = options.path ?? unique('grp');
  return expectCreated(
    `group ${path}`,
    api(server.url, token).post('/groups', { name: `Group ${path}`, path, visibility: options.visibility ?? 'private', parent_id: options.parentId }),
  );
}

export function createProject(
  server: TestServer,
  token: string,
  options: { visibility?: Visibility; namespaceId?: number; path?: string; name?: string; defaultBranch?: string; readme?: boolean } = {},
): Promise<ProjectInfo> {
  const path = options.path ?? unique('prj');
  return expectCreated(
    `project ${path}`,
    api(server.url, token).post('/projects', {
      name: options.name ?? `Project ${path}`,
      path,
      namespace_id: options.namespaceId,
      visibility: options.visibility ?? 'private',
      default_branch: options.defaultBranch,
      initialize_with_readme: options.readme,
    }),
  );
}

export async function addMember(server: TestServer, token: string, target: { project: number } | { group: number }, userId: number, role: Role): Promise<void> {
  const path = 'project' in target ? `/projects/${target.project}/members` : `/groups/${target.group}/members`;
  await expectCreated(`membership of user ${userId}`, api(server.url, token).post(path, { user_id: userId, access_level: ROLE_LEVELS[role] }));
}

/** Creates users in parallel (password hashing dominates the cost). */
export async function createUsers<K extends string>(server: TestServer, names: readonly K[], options: { scopes?: string[] } = {}): Promise<Record<K, TestUser>> {
  const users = await Promise.all(names.map((name) => server.createUser({ username: unique(name).replace(/-/g, '_'), scopes: options.scopes })));
  return Object.fromEntries(names.map((name, index) => [name, users[index]!])) as Record<K, TestUser>;
}

/** Every caller the access rules distinguish. */
export const ACTORS = ['anonymous', 'stranger', 'guest', 'reporter', 'developer', 'maintainer', 'owner', 'admin'] as const;
export type ActorName = (typeof ACTORS)[number];

/** The signed-in cast: a non-member, one user per role, and an administrator (root). */
export interface Cast {
  users: Record<Exclude<ActorName, 'anonymous'>, TestUser>;
  /** The token of an actor, or undefined for anonymous. */
  token(actor: ActorName): string | undefined;
}

export async function createCast(server: TestServer): Promise<Cast> {
  const created = await createUsers(server, ['stranger', 'guest', 'reporter', 'developer', 'maintainer', 'owner'] as const);
  const users = { ...created, admin: server.root };
  return { users, token: (actor) => (actor === 'anonymous' ? undefined : users[actor].token) };
}

/**
 * A group of the given visibility, created by the cast's owner (so they are
 * its Owner), with the other roles as group members, and a project of the
 * same visibility inside it: every role reaches the project by inheritance.
 */
export async function groupWithRoles(server: TestServer, cast: Cast, visibility: Visibility, options: { readme?: boolean } = {}) {
  const owner = cast.users.owner.token;
  const group = await createGroup(server, owner, { visibility });
  for (const role of ['guest', 'reporter', 'developer', 'maintainer'] as const) {
    await addMember(server, owner, { group: group.id }, cast.users[role].id, role);
  }
  const project = await createProject(server, owner, { visibility, namespaceId: group.id, readme: options.readme });
  return { group, project };
}

/**
 * A project in `member`'s hands with the given role: created by `creatorToken`
 * (whose namespace holds it) and the member added directly to the project.
 */
export async function createProjectAs(
  server: TestServer,
  creatorToken: string,
  member: TestUser,
  role: Exclude<Role, 'owner'>,
  options: { visibility?: Visibility; readme?: boolean } = {},
): Promise<ProjectInfo> {
  const project = await createProject(server, creatorToken, options);
  await addMember(server, creatorToken, { project: project.id }, member.id, role);
  return project;
}

/** Counts rows of a table through the server's own database (to prove a refused request changed nothing). */
export async function countRows(server: TestServer, table: string, where = 'true', params: unknown[] = []): Promise<number> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  const { rows } = await server.app.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table} WHERE ${where}`, params);
  return rows[0]!.count;
}
