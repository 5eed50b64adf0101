import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_PATHS } from '../src/platform/logger.js';
import { testDatabaseKind } from '../src/test-support/database.js';
import { startTestServer, type TestServer, type TestUser } from '../src/test-support/server.js';
import { countRows, createProject, createProjectAs, createUsers, unique, type ProjectInfo } from '../src/test-support/rest-fixtures.js';
import { ANONYMOUS, clone, withGit } from '../src/test-support/git-client.js';
import { api, basicAuth, http, type HttpResponse } from '../src/test-support/http.js';

/** CSRF, sign-in, secrets at rest and in logs, and cross-project lookups (IDOR). */

/** A session from POST /-/session: the cookie to send back and the CSRF token the response carried. */
interface WebSession {
  cookie: string;
  csrf: string;
  setCookie: string;
}

describe(`security (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let users: Record<'alice' | 'bob' | 'victim' | 'maintainer' | 'outsider', TestUser>;
  const logLines: string[] = [];

  beforeAll(async () => {
    // Everything the server logs, at every level, with the production redaction rules.
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: 'trace', redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' } }, sink);
    // As behind a reverse proxy on this host: X-Forwarded-For from 127.0.0.1 names the client,
    // so the throttling test can play callers from several addresses.
    server = await startTestServer({ logger, config: { trustProxy: '127.0.0.1' } });
    users = await createUsers(server, ['alice', 'bob', 'victim', 'maintainer', 'outsider'] as const);
  });
  afterAll(() => server?.close());

  async function signIn(user: TestUser): Promise<HttpResponse & { session?: WebSession }> {
    const response = await http(server.url, 'POST', '/-/session', { json: { login: user.username, password: user.password } });
    const setCookie = response.headers.get('set-cookie') ?? '';
    const cookie = setCookie.split(';')[0] ?? '';
    return Object.assign(response, response.status === 201 ? { session: { cookie, csrf: response.body.csrf_token as string, setCookie } } : {});
  }

  async function session(user: TestUser): Promise<WebSession> {
    const response = await signIn(user);
    expect(response.status, response.text).toBe(201);
    return response.session!;
  }

  /** POST /api/v4/projects with a session cookie and the given extra headers. */
  const createProjectWith = (s: WebSession, headers: Record<string, string>) =>
    http(server.url, 'POST', '/api/v4/projects', { json: { name: unique('csrf') }, headers: { cookie: s.cookie, ...headers } });

  describe('CSRF protection of cookie sessions', () => {
    let alice: WebSession;
    let bob: WebSession;
    beforeAll(async () => {
      alice = await session(users.alice);
      bob = await session(users.bob);
    });

    it('sets an HttpOnly, SameSite=Lax session cookie', () => {
      expect(alice.setCookie).toMatch(/HttpOnly/i);
      expect(alice.setCookie).toMatch(/SameSite=Lax/i);
      expect(alice.setCookie).toMatch(/Path=\//);
      expect(alice.csrf.length).toBeGreaterThanOrEqual(32);
    });

    it('reads with the cookie alone (GET is safe)', async () => {
      const me = await http(server.url, 'GET', '/api/v4/user', { headers: { cookie: alice.cookie } });
      expect(me.status).toBe(200);
      expect(me.body.username).toBe(users.alice.username);
    });

    it.each([
      ['no X-CSRF-Token', () => ({})],
      ['a wrong X-CSRF-Token', () => ({ 'x-csrf-token': 'not-the-token' })],
      ["another session's X-CSRF-Token", () => ({ 'x-csrf-token': bob.csrf })],
      ['a cross-origin Origin', () => ({ 'x-csrf-token': alice.csrf, origin: 'https://evil.example' })],
    ])('refuses a write with %s (403) and changes nothing', async (_case, headersOf) => {
      const before = await countRows(server, 'projects');
      const response = await createProjectWith(alice, headersOf());
      expect(response.status).toBe(403);
      expect(await countRows(server, 'projects')).toBe(before);
    });

    it('grants no cross-origin reads (no CORS headers for a foreign Origin)', async () => {
      const response = await http(server.url, 'GET', '/-/session', { headers: { cookie: alice.cookie, origin: 'https://evil.example' } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      const preflight = await http(server.url, 'OPTIONS', '/api/v4/projects', {
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-csrf-token' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('accepts a write with the session’s own token, from our own origin', async () => {
      const response = await createProjectWith(alice, { 'x-csrf-token': alice.csrf, origin: server.url });
      expect(response.status).toBe(201);
      expect(response.body.namespace.full_path).toBe(users.alice.username);
    });

    it('signs out only with the CSRF token, after which the cookie is worthless', async () => {
      const s = await session(users.alice);
      expect((await http(server.url, 'DELETE', '/-/session', { headers: { cookie: s.cookie } })).status).toBe(403);
      expect((await http(server.url, 'GET', '/-/session', { headers: { cookie: s.cookie } })).status).toBe(200);
      expect((await http(server.url, 'DELETE', '/-/session', { headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } })).status).toBe(204);
      expect((await http(server.url, 'GET', '/-/session', { headers: { cookie: s.cookie } })).status).toBe(401);
      expect((await http(server.url, 'GET', '/api/v4/user', { headers: { cookie: s.cookie } })).status).toBe(401);
    });

    it.each([
      ['application/x-www-form-urlencoded', () => `login=${users.alice.username}&password=${encodeURIComponent(users.alice.password)}`],
      ['text/plain', () => JSON.stringify({ login: users.alice.username, password: users.alice.password })],
    ])('refuses a sign-in sent as %s (what a cross-site form can send)', async (type, bodyOf) => {
      const before = await countRows(server, 'sessions');
      const response = await http(server.url, 'POST', '/-/session', { headers: { 'content-type': type }, body: bodyOf() });
      expect(response.status).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await countRows(server, 'sessions')).toBe(before);
    });

    it.each([[{ login: 'alice' }], [{ login: '', password: 'x' }], [{ login: 'alice', password: 7 }], [[]]])('answers 400 to the sign-in body %j and starts no session', async (json) => {
      const before = await countRows(server, 'sessions');
      const response = await http(server.url, 'POST', '/-/session', { json });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: '400 (Bad request) "login" and "password" are required' });
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await countRows(server, 'sessions')).toBe(before);
    });
  });

  describe('sign-in throttling', () => {
    const attempt = (user: TestUser, password: string, address: string) =>
      http(server.url, 'POST', '/-/session', { json: { login: user.username, password }, headers: { 'x-forwarded-for': address } });

    it('answers 429 after 10 failures, then refuses even the right password', async () => {
      const address = '203.0.113.10';
      for (let i = 0; i < 10; i++) {
        const failed = await attempt(users.victim, `wrong-${i}`, address);
        expect(failed.status).toBe(401);
        expect(failed.body).toEqual({ message: 'Invalid login or password.' });
      }
      const locked = await attempt(users.victim, users.victim.password, address);
      expect(locked.status).toBe(429);
      expect(locked.headers.get('set-cookie')).toBeNull();
      // The lock is on the login, not only on the address it was attacked from.
      expect((await attempt(users.victim, users.victim.password, '198.51.100.20')).status).toBe(429);
      // …and on the address: another login from there is throttled too.
      expect((await attempt(users.bob, users.bob.password, address)).status).toBe(429);
      // Others elsewhere are unaffected.
      expect((await attempt(users.bob, users.bob.password, '198.51.100.21')).status).toBe(201);
    });

    it('counts password guesses over git HTTP Basic too, so git is no way around the lock', async () => {
      const target = (await createUsers(server, ['guessed'] as const)).guessed;
      const project = await createProject(server, target.token, { readme: true });
      const address = '203.0.113.30';
      const gitLogin = (password: string) =>
        http(server.url, 'GET', `/${project.path_with_namespace}.git/info/refs?service=git-upload-pack`, {
          headers: { authorization: basicAuth(target.username, password), 'x-forwarded-for': address },
        });
      for (let i = 0; i < 10; i++) expect((await gitLogin(`guess-${i}`)).status).toBe(401);
      expect((await attempt(target, target.password, '198.51.100.40')).status).toBe(429);
      expect((await gitLogin(target.password)).status).not.toBe(200);
    });
  });

  describe('secrets at rest', () => {
    it('stores passwords only as salted scrypt hashes', async () => {
      const { rows } = await server.app.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = ANY($1) ORDER BY id', [
        [users.alice.id, users.bob.id],
      ]);
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
      expect(rows[0]!.password_hash).not.toBe(rows[1]!.password_hash);
    });

    it('stores tokens only as SHA-256 digests', async () => {
      const { rows } = await server.app.db.query<{ token_digest: string }>('SELECT token_digest FROM personal_access_tokens WHERE user_id = $1', [users.alice.id]);
      expect(rows.map((row) => row.token_digest)).toContain(createHash('sha256').update(users.alice.token).digest('hex'));
    });

    it('has no password, token or session id in any table', async () => {
      const s = await session(users.alice);
      const secrets = [...Object.values(users).flatMap((user) => [user.password, user.token]), server.root.password, server.root.token, s.cookie.split('=')[1]!];
      const { rows: tables } = await server.app.db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      );
      expect(tables.length).toBeGreaterThan(5);
      for (const { table_name } of tables) {
        const { rows } = await server.app.db.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM "${table_name}" t`);
        const dump = rows.map((row) => row.row).join('\n');
        for (const secret of secrets) expect(dump.includes(secret), `${table_name} holds a secret`).toBe(false);
      }
    });
  });

  describe('cross-project lookups (IDOR)', () => {
    let projectA: ProjectInfo;
    let projectB: ProjectInfo;
    let memberOfB: TestUser;

    beforeAll(async () => {
      memberOfB = users.outsider;
      projectA = await createProjectAs(server, users.alice.token, users.maintainer, 'maintainer');
      projectB = await createProjectAs(server, users.bob.token, memberOfB, 'developer');
    });

    const asMaintainerOfA = () => api(server.url, users.maintainer.token);
    const levelInB = async () => (await api(server.url, users.bob.token).get(`/projects/${projectB.id}/members/${memberOfB.id}`)).body.access_level;

    it('hides project B and its members from a maintainer of A (404)', async () => {
      expect((await asMaintainerOfA().get(`/projects/${projectB.id}`)).status).toBe(404);
      expect((await asMaintainerOfA().get(`/projects/${projectB.id}/members`)).status).toBe(404);
      expect((await asMaintainerOfA().get(`/projects/${projectB.id}/members/${memberOfB.id}`)).status).toBe(404);
    });

    it.each(['/members/', '/members/all/'])('answers 404 for a member of B looked up through A (%s:user_id)', async (route) => {
      const response = await asMaintainerOfA().get(`/projects/${projectA.id}${route}${memberOfB.id}`);
      expect(response.status).toBe(404);
      expect(response.text).not.toContain(memberOfB.username);
    });

    it('does not list members of B in A, even when asked by user_ids', async () => {
      const response = await asMaintainerOfA().get(`/projects/${projectA.id}/members?user_ids=${memberOfB.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    });

    it('cannot change or remove a member of B through A', async () => {
      expect((await asMaintainerOfA().put(`/projects/${projectA.id}/members/${memberOfB.id}`, { access_level: 40 })).status).toBe(404);
      expect((await asMaintainerOfA().delete(`/projects/${projectA.id}/members/${memberOfB.id}`)).status).toBe(404);
      expect(await levelInB()).toBe(30);
    });

    it('cannot read or revoke another user’s token by id', async () => {
      const { rows } = await server.app.db.query<{ id: number }>('SELECT id FROM personal_access_tokens WHERE user_id = $1 LIMIT 1', [users.bob.id]);
      const tokenId = rows[0]!.id;
      expect((await api(server.url, users.alice.token).get(`/personal_access_tokens/${tokenId}`)).status).toBe(404);
      expect((await api(server.url, users.alice.token).delete(`/personal_access_tokens/${tokenId}`)).status).toBe(404);
      expect((await api(server.url, users.bob.token).get('/user')).status).toBe(200);
    });
  });

  // Lessons A and B: refs and paths that look like git options or escape the repository.
  describe('git arguments and paths from the URL', () => {
    const trap = join(tmpdir(), unique('trap'));
    let project: ProjectInfo;
    beforeAll(async () => {
      mkdirSync(trap, { recursive: true });
      project = await createProject(server, users.alice.token, { readme: true });
    });
    afterAll(() => rmSync(trap, { recursive: true, force: true }));

    const hostileRefs = () => [`--output=${trap}/out`, '-h', `--upload-pack=touch ${trap}/pwned`, 'main\u0000--exec=id', '--all'];
    const refEndpoints: [string, (ref: string) => string][] = [
      ['tree', (ref) => `/repository/tree?ref=${encodeURIComponent(ref)}`],
      ['file', (ref) => `/repository/files/README.md?ref=${encodeURIComponent(ref)}`],
      ['raw file', (ref) => `/repository/files/README.md/raw?ref=${encodeURIComponent(ref)}`],
      ['commits', (ref) => `/repository/commits?ref_name=${encodeURIComponent(ref)}`],
      ['commit', (ref) => `/repository/commits/${encodeURIComponent(ref)}`],
      ['compare from', (ref) => `/repository/compare?from=${encodeURIComponent(ref)}&to=main`],
      ['compare to', (ref) => `/repository/compare?from=main&to=${encodeURIComponent(ref)}`],
      ['branch', (ref) => `/repository/branches/${encodeURIComponent(ref)}`],
    ];

    it.each(refEndpoints)('%s: option-like refs are a 4xx and run nothing', async (_name, pathFor) => {
      for (const ref of hostileRefs()) {
        const response = await api(server.url, users.alice.token).get(`/projects/${project.id}${pathFor(ref)}`);
        expect(response.status, `${ref} → ${response.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }
      const branch = await api(server.url, users.alice.token).post(`/projects/${project.id}/repository/branches`, { branch: unique('b'), ref: `--output=${trap}/out` });
      expect(branch.status).toBeGreaterThanOrEqual(400);
      expect(readdirSync(trap)).toEqual([]);
    });

    it.each(['../../../../etc/passwd', '..%2F..%2F..%2Fetc%2Fpasswd', '.git/config', 'config', 'HEAD', '%2e%2e%2fREADME.md', 'README.md%00.txt'])(
      'file path %s is not found and reads nothing outside the tree',
      async (path) => {
        const response = await http(server.url, 'GET', `/api/v4/projects/${project.id}/repository/files/${path.includes('%') ? path : encodeURIComponent(path)}/raw?ref=main`, {
          token: users.alice.token,
        });
        expect([400, 404]).toContain(response.status);
        expect(response.text).not.toMatch(/root:x:0:0|\[core\]|refs\/heads/);
      },
    );
  });

  describe('blocked users', () => {
    it('are refused with their token, their session and over git', async () => {
      const blocked = (await createUsers(server, ['blocked'] as const)).blocked;
      const project = await createProject(server, blocked.token, { readme: true });
      const s = await session(blocked);
      expect((await api(server.url, server.root.token).post(`/users/${blocked.id}/block`)).status).toBe(201);
      expect((await api(server.url, blocked.token).get('/user')).status).toBe(401);
      expect((await http(server.url, 'GET', '/api/v4/user', { headers: { cookie: s.cookie } })).status).toBe(401);
      expect((await signIn(blocked)).status).toBe(401);
      for (const password of [blocked.password, blocked.token]) {
        const result = await withGit(server.url, { username: blocked.username, password }, (cli) => clone(cli, project.path_with_namespace, 'copy'));
        expect(result.stderr).toContain('HTTP Basic: Access denied');
      }
    });
  });

  describe('secrets in logs', () => {
    it('never logs a token or a password, wherever it was sent', async () => {
      const token = users.alice.token;
      const project = await createProject(server, token, { readme: true });
      await http(server.url, 'GET', '/api/v4/user', { headers: { 'private-token': token } });
      await http(server.url, 'GET', `/api/v4/user?private_token=${encodeURIComponent(token)}`);
      await http(server.url, 'GET', `/api/v4/projects/999999?private_token=${encodeURIComponent(token)}`);
      await http(server.url, 'GET', '/api/v4/user?private_token=glpat-bad-token-in-the-url');
      await http(server.url, 'GET', '/api/v4/user', { headers: { authorization: `Bearer ${token}` } });
      await signIn(users.alice);
      await signIn({ ...users.bob, password: 'a-wrong-password-1' });
      await withGit(server.url, { username: users.alice.username, password: users.alice.password }, (cli) => clone(cli, project.path_with_namespace, 'by-password'));
      await withGit(server.url, { username: users.alice.username, password: token }, (cli) => clone(cli, project.path_with_namespace, 'by-token'));
      await withGit(server.url, { username: users.alice.username, password: 'wrong-git-password' }, (cli) => clone(cli, project.path_with_namespace, 'refused'));
      await withGit(server.url, ANONYMOUS, (cli) => clone(cli, project.path_with_namespace, 'anonymous'));

      const log = logLines.join('');
      expect(log).toContain('"msg":"request"');
      expect(log).toContain('private_token=[REDACTED]');
      const secrets = [token, users.alice.password, users.bob.password, 'a-wrong-password-1', 'wrong-git-password', 'glpat-bad-token-in-the-url', server.root.token];
      for (const secret of secrets) expect(log.includes(secret), `the log holds ${secret.slice(0, 8)}…`).toBe(false);
    });
  });
});
