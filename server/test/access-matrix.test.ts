import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../src/test-support/database.js';
import { startTestServer, type TestServer } from '../src/test-support/server.js';
import {
  ACTORS,
  createCast,
  createProject,
  createUsers,
  groupWithRoles,
  unique,
  VISIBILITIES,
  type ActorName,
  type Cast,
  type GroupInfo,
  type ProjectInfo,
  type Visibility,
} from '../src/test-support/rest-fixtures.js';
import { api, basicAuth, encodePath, http, type HttpResponse } from '../src/test-support/http.js';

/*
 * The access matrix: every endpoint × every kind of caller × every visibility,
 * against GitLab's documented outcome. The rules live in `expected()` below and
 * nowhere else; they follow GitLab's documentation, not Tributary's code:
 *
 *   doc/user/public_access.md     who can see a public, internal or private project/group
 *   doc/user/permissions.md       which role may do what (Guest < Reporter < Developer < Maintainer < Owner)
 *   doc/api/rest/troubleshooting  401 without credentials, 403 visible-but-forbidden, 404 for what may not be seen
 *   doc/topics/git (smart HTTP)   git answers an anonymous caller with a 401 challenge so the client asks for credentials
 *
 * Git is exercised through the smart HTTP endpoints (`info/refs?service=…`), where the access
 * decision is taken; git-http.test.ts drives the real git client for the same rules.
 */

type Role = 'viewer' | 'guest' | 'reporter' | 'developer' | 'maintainer' | 'owner';
type Outcome = 'ok' | 401 | 403 | 404;

/** Who may do something: a role, or "viewer" (anyone who can see the subject at all). */
type Requirement = Role | ((visibility: Visibility) => Role);

const RANK: Record<Role, number> = { viewer: 0, guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 };
const ACTOR_LEVEL: Record<ActorName, number> = { anonymous: 0, stranger: 0, guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50, admin: 0 };

/** "View project code" / "Download project": Reporter in a private project, anyone who sees it otherwise. */
const READ_CODE: Requirement = (visibility) => (visibility === 'private' ? 'reporter' : 'viewer');

interface Endpoint {
  name: string;
  requires: Requirement;
  /** changes something: anonymous callers get 401 before anything is looked up */
  writes: boolean;
  /** git smart HTTP: an anonymous caller is challenged (401) instead of told 403/404 */
  git?: boolean;
  okStatus: number;
  call(target: Target, actor: ActorName): Promise<HttpResponse>;
}

/** GitLab's answer for `actor` calling `endpoint` on a subject of `visibility`. */
function expected(endpoint: Endpoint, actor: ActorName, visibility: Visibility): Outcome {
  const signedIn = actor !== 'anonymous';
  const admin = actor === 'admin';
  const level = ACTOR_LEVEL[actor];

  // Anonymous callers may not change anything: 401 Unauthorized, whatever the subject.
  if (!signedIn && endpoint.writes) return 401;

  // Public: everyone sees it. Internal: every signed-in user. Private: members (Guest and up). Admins: everything.
  const canSee = admin || visibility === 'public' || (visibility === 'internal' && signedIn) || level >= RANK.guest;
  // Git asks an anonymous caller for credentials; the API says "not found" for what may not be seen.
  if (!canSee) return endpoint.git && !signedIn ? 401 : 404;

  const needed = typeof endpoint.requires === 'function' ? endpoint.requires(visibility) : endpoint.requires;
  const allowed = admin || (needed === 'viewer' ? true : level >= RANK[needed]);
  if (!allowed) return endpoint.git && !signedIn ? 401 : 403;
  return 'ok';
}

interface Target {
  project: ProjectInfo;
  group: GroupInfo;
  visibility: Visibility;
}

describe(`access matrix (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let cast: Cast;
  let candidateId: number;
  const targets = new Map<Visibility, Target>();
  const victims = new Map<Visibility, ProjectInfo>();

  const rest = (actor: ActorName) => api(server.url, cast.token(actor));
  const projectPath = (target: Target, suffix = '') => `/projects/${target.project.id}${suffix}`;
  const gitHeaders = (actor: ActorName): Record<string, string> =>
    actor === 'anonymous' ? {} : { authorization: basicAuth(cast.users[actor].username, cast.users[actor].token) };
  const infoRefs = (target: Target, actor: ActorName, service: string) =>
    http(server.url, 'GET', `/${target.project.path_with_namespace}.git/info/refs?service=${service}`, { headers: gitHeaders(actor) });

  const ENDPOINTS: Endpoint[] = [
    { name: 'GET project', requires: 'viewer', writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t)) },
    { name: 'GET project by path', requires: 'viewer', writes: false, okStatus: 200, call: (t, a) => rest(a).get(`/projects/${encodePath(t.project.path_with_namespace)}`) },
    { name: 'GET members', requires: 'viewer', writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/members')) },
    { name: 'GET members/all', requires: 'viewer', writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/members/all')) },
    {
      name: 'POST members',
      requires: 'maintainer',
      writes: true,
      okStatus: 201,
      async call(t, a) {
        const response = await rest(a).post(projectPath(t, '/members'), { user_id: candidateId, access_level: 10 });
        // Undo a success so every case starts from the same state.
        if (response.status === 201) await api(server.url, server.root.token).delete(projectPath(t, `/members/${candidateId}`));
        return response;
      },
    },
    { name: 'PUT project', requires: 'maintainer', writes: true, okStatus: 200, call: (t, a) => rest(a).put(projectPath(t), { description: 'Described' }) },
    {
      name: 'DELETE project',
      requires: 'owner',
      writes: true,
      okStatus: 202,
      async call(t, a) {
        // A separate project in the same group, replaced once deleted: a wrong "yes" cannot break other cases.
        let doomed = victims.get(t.visibility);
        if (!doomed) victims.set(t.visibility, (doomed = await createProject(server, cast.users.owner.token, { visibility: t.visibility, namespaceId: t.group.id })));
        const response = await rest(a).delete(`/projects/${doomed.id}`);
        if (response.status === 202) victims.delete(t.visibility);
        return response;
      },
    },
    { name: 'GET group', requires: 'viewer', writes: false, okStatus: 200, call: (t, a) => rest(a).get(`/groups/${t.group.id}`) },
    { name: 'GET group by path', requires: 'viewer', writes: false, okStatus: 200, call: (t, a) => rest(a).get(`/groups/${encodePath(t.group.full_path)}`) },
    { name: 'GET branches', requires: READ_CODE, writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/repository/branches')) },
    { name: 'GET branch', requires: READ_CODE, writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/repository/branches/main')) },
    { name: 'GET tree', requires: READ_CODE, writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/repository/tree?ref=main')) },
    { name: 'GET file', requires: READ_CODE, writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/repository/files/README.md?ref=main')) },
    { name: 'GET raw file', requires: READ_CODE, writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/repository/files/README.md/raw?ref=main')) },
    { name: 'GET commits', requires: READ_CODE, writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/repository/commits')) },
    { name: 'GET commit', requires: READ_CODE, writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/repository/commits/main')) },
    { name: 'GET compare', requires: READ_CODE, writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/repository/compare?from=main&to=main')) },
    {
      name: 'POST branch',
      requires: 'developer',
      writes: true,
      okStatus: 201,
      call: (t, a) => rest(a).post(projectPath(t, '/repository/branches'), { branch: unique('matrix'), ref: 'main' }),
    },
    { name: 'GET protected branches', requires: 'maintainer', writes: false, okStatus: 200, call: (t, a) => rest(a).get(projectPath(t, '/protected_branches')) },
    { name: 'git clone (upload-pack)', requires: READ_CODE, writes: false, git: true, okStatus: 200, call: (t, a) => infoRefs(t, a, 'git-upload-pack') },
    { name: 'git push (receive-pack)', requires: 'developer', writes: true, git: true, okStatus: 200, call: (t, a) => infoRefs(t, a, 'git-receive-pack') },
  ];

  beforeAll(async () => {
    server = await startTestServer();
    cast = await createCast(server);
    candidateId = (await createUsers(server, ['candidate'] as const)).candidate.id;
    for (const visibility of VISIBILITIES) {
      const { group, project } = await groupWithRoles(server, cast, visibility, { readme: true });
      targets.set(visibility, { group, project, visibility });
    }
  });
  afterAll(() => server?.close());

  const cases = ENDPOINTS.flatMap((endpoint) =>
    VISIBILITIES.flatMap((visibility) => ACTORS.map((actor) => ({ endpoint, visibility, actor, outcome: expected(endpoint, actor, visibility) }))),
  );

  it('covers every endpoint × actor × visibility, with each outcome somewhere', () => {
    expect(cases).toHaveLength(ENDPOINTS.length * ACTORS.length * VISIBILITIES.length);
    expect(new Set(cases.map((c) => c.outcome))).toEqual(new Set(['ok', 401, 403, 404]));
  });

  // Lists show exactly what the single-resource rules let the caller see.
  it.each(ACTORS)('GET /projects and /groups list for %s only what they may see', async (actor) => {
    const visibleTo = (name: string) => VISIBILITIES.filter((v) => expected(ENDPOINTS.find((e) => e.name === name)!, actor, v) === 'ok');
    const projects = await rest(actor).get('/projects?per_page=100&simple=true');
    expect(projects.status).toBe(200);
    const projectIds = new Set(projects.body.map((p: { id: number }) => p.id));
    expect(VISIBILITIES.filter((v) => projectIds.has(targets.get(v)!.project.id))).toEqual(visibleTo('GET project'));
    const groups = await rest(actor).get('/groups?all_available=true&per_page=100');
    expect(groups.status).toBe(200);
    const groupIds = new Set(groups.body.map((g: { id: number }) => g.id));
    expect(VISIBILITIES.filter((v) => groupIds.has(targets.get(v)!.group.id))).toEqual(visibleTo('GET group'));
  });

  it.each(cases.map((c) => [c.endpoint.name, c.visibility, c.actor, c.outcome, c] as const))(
    '%s · %s · %s → %s',
    async (_name, visibility, actor, outcome, { endpoint }) => {
      const target = targets.get(visibility)!;
      const response = await endpoint.call(target, actor);
      const status = outcome === 'ok' ? endpoint.okStatus : outcome;
      expect(response.status, response.text.slice(0, 300)).toBe(status);

      if (outcome === 404) {
        // Nothing about the hidden subject leaks: no name, no path.
        for (const secret of [target.project.name, target.project.path_with_namespace, target.group.name]) expect(response.text).not.toContain(secret);
        if (!endpoint.git) expect(response.body).toEqual({ message: expect.stringMatching(/^404 .*Not Found$/) });
      }
      if (outcome === 401 && !endpoint.git) expect(response.body).toEqual({ message: '401 Unauthorized' });
      if (outcome === 401 && endpoint.git) expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
      if (outcome === 403 && !endpoint.git) expect(response.body).toHaveProperty('message');
    },
  );
});
