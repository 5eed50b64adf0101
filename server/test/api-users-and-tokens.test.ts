import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../src/test-support/database.js';
import { seedPgliteDir } from '../src/test-support/pglite-template.js';
import { createTestDatabase } from '../src/test-support/postgres-cluster.js';
import { gitbeakerClient, startTestServer, strongPassword, type TestServer, type TestUser } from '../src/test-support/server.js';
import { runCli, startServerOn } from '../src/test-support/cli.js';
import { countRows, unique } from '../src/test-support/rest-fixtures.js';
import { api, gitbeakerStatus, http } from '../src/test-support/http.js';

/** Users and personal access tokens through @gitbeaker/rest, raw HTTP and the `tributary` CLI. */
describe(`users and tokens (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let alice: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await server.createUser({ username: unique('alice') });
  });
  afterAll(() => server?.close());

  const root = () => gitbeakerClient(server.url, server.root.token);
  const newUserInput = (prefix: string) => {
    const username = unique(prefix);
    return { username, name: `User ${username}`, email: `${username}@example.com`, password: strongPassword() };
  };
  const tokenStatus = async (token: string) => (await api(server.url, token).get('/user')).status;

  describe('the current user', () => {
    it('is root, an administrator, for the root token', async () => {
      const me = await root().Users.showCurrentUser();
      expect(me).toMatchObject({ id: server.root.id, username: 'root', is_admin: true, state: 'active' });
    });

    it('is the token owner, not an administrator, for a user token', async () => {
      const me = await gitbeakerClient(server.url, alice.token).Users.showCurrentUser();
      expect(me).toMatchObject({ id: alice.id, username: alice.username, is_admin: false });
    });
  });

  describe('creating users', () => {
    it('lets an administrator create a user who can then be looked up', async () => {
      const input = newUserInput('created');
      const user = await root().Users.create(input);
      expect(user).toMatchObject({ username: input.username, name: input.name, email: input.email, is_admin: false });
      const shown = await root().Users.show(user.id as number);
      expect(shown.username).toBe(input.username);
    });

    it('refuses a non-administrator with 403 and creates nothing', async () => {
      const before = await countRows(server, 'users');
      const refused = await gitbeakerStatus(gitbeakerClient(server.url, alice.token).Users.create(newUserInput('sneaky')));
      expect(refused.status).toBe(403);
      expect(await countRows(server, 'users')).toBe(before);
    });

    it('refuses an anonymous caller with 401', async () => {
      const response = await api(server.url).post('/users', newUserInput('anon'));
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('listing users with pagination', () => {
    beforeAll(async () => {
      for (let i = 0; i < 3; i++) await root().Users.create(newUserInput('listed'));
    });

    it('reports X-Total, X-Total-Pages and the page links to gitbeaker', async () => {
      const total = await countRows(server, 'users');
      const { data, paginationInfo } = await root().Users.all({ perPage: 2, page: 1, showExpanded: true });
      expect(data).toHaveLength(2);
      expect(paginationInfo).toMatchObject({ total, totalPages: Math.ceil(total / 2), current: 1, next: 2, previous: null, perPage: 2 });
    });

    it('is followed across every page through the Link header', async () => {
      const total = await countRows(server, 'users');
      const all = await root().Users.all({ perPage: 2 });
      expect(all).toHaveLength(total);
      expect(new Set(all.map((user) => user.id)).size).toBe(total);
    });

    it('sends the GitLab pagination headers on the last page', async () => {
      const total = await countRows(server, 'users');
      const lastPage = Math.ceil(total / 2);
      const response = await api(server.url, server.root.token).get(`/users?per_page=2&page=${lastPage}`);
      expect(response.headers.get('x-total')).toBe(String(total));
      expect(response.headers.get('x-page')).toBe(String(lastPage));
      expect(response.headers.get('x-next-page')).toBe('');
      expect(response.headers.get('x-prev-page')).toBe(String(lastPage - 1));
      expect(response.headers.get('link')).toMatch(/<[^>]+page=1[^>]*>; rel="first"/);
      expect(response.headers.get('link')).not.toContain('rel="next"');
    });
  });

  describe('personal access tokens', () => {
    const createOwn = (token: string, input: Record<string, unknown>) => api(server.url, token).post('/user/personal_access_tokens', input);

    it('are created by their owner with POST /user/personal_access_tokens and work at once', async () => {
      const response = await createOwn(alice.token, { name: 'own', scopes: ['api'] });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ name: 'own', scopes: ['api'], user_id: alice.id, active: true, revoked: false });
      expect(response.body.token).toMatch(/^glpat-/);
      expect(await tokenStatus(response.body.token)).toBe(200);
    });

    it('are created for a user by an administrator (gitbeaker Users.createPersonalAccessToken)', async () => {
      const created = await root().Users.createPersonalAccessToken(alice.id, 'by-admin', ['read_api']);
      expect(created).toMatchObject({ name: 'by-admin', scopes: ['read_api'], user_id: alice.id });
      const me = await gitbeakerClient(server.url, created.token as string).Users.showCurrentUser();
      expect(me.username).toBe(alice.username);
    });

    it('carry sudo and admin_mode only for an administrator (400 for anyone else, as GitLab)', async () => {
      const before = await countRows(server, 'personal_access_tokens');
      for (const scopes of [['sudo'], ['api', 'admin_mode']]) {
        const refused = await createOwn(alice.token, { name: 'escalate', scopes });
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({ message: '400 Bad request - Scopes can only contain available scopes' });
        // Nor may an administrator give one to a non-administrator.
        expect((await gitbeakerStatus(root().Users.createPersonalAccessToken(alice.id, 'given', scopes as never))).status).toBe(400);
      }
      expect(await countRows(server, 'personal_access_tokens')).toBe(before);
      expect((await createOwn(server.root.token, { name: 'admin-sudo', scopes: ['api', 'sudo'] })).status).toBe(201);
    });

    it('are not created by a user for someone else (403)', async () => {
      const before = await countRows(server, 'personal_access_tokens');
      const response = await api(server.url, alice.token).post(`/users/${server.root.id}/personal_access_tokens`, { name: 'steal', scopes: ['api'] });
      expect(response.status).toBe(403);
      expect(await countRows(server, 'personal_access_tokens')).toBe(before);
    });

    it('refuse a request without name or scopes (400 naming the field)', async () => {
      expect((await createOwn(alice.token, { scopes: ['api'] })).body).toEqual({ message: '400 (Bad request) "name" not given' });
      expect((await createOwn(alice.token, { name: 'x' })).body).toEqual({ message: '400 (Bad request) "scopes" not given' });
    });

    it('are listed: the owner sees only their own, the admin filters by user_id', async () => {
      const mine = await api(server.url, alice.token).get('/personal_access_tokens?per_page=100');
      expect(mine.status).toBe(200);
      expect(mine.body.length).toBeGreaterThan(0);
      expect(mine.body.every((token: { user_id: number }) => token.user_id === alice.id)).toBe(true);
      expect(JSON.stringify(mine.body)).not.toContain('glpat-');
      const filtered = await root().PersonalAccessTokens.all({ userId: alice.id });
      expect(filtered.map((token) => token.id).sort()).toEqual(mine.body.map((token: { id: number }) => token.id).sort());
    });

    it('stop working once revoked (204, then 401), and show as inactive', async () => {
      const { body } = await createOwn(alice.token, { name: 'to-revoke', scopes: ['api'] });
      expect(await tokenStatus(body.token)).toBe(200);
      const revoked = await api(server.url, alice.token).delete(`/personal_access_tokens/${body.id}`);
      expect(revoked.status).toBe(204);
      const after = await api(server.url, body.token).get('/user');
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ message: '401 Unauthorized' });
      const shown = await api(server.url, alice.token).get(`/personal_access_tokens/${body.id}`);
      expect(shown.body).toMatchObject({ revoked: true, active: false });
    });

    it('cannot be revoked by another user (404, the token stays active)', async () => {
      const { body } = await createOwn(alice.token, { name: 'keep', scopes: ['api'] });
      const bob = await server.createUser({ username: unique('bob') });
      expect((await api(server.url, bob.token).delete(`/personal_access_tokens/${body.id}`)).status).toBe(404);
      expect(await tokenStatus(body.token)).toBe(200);
    });

    it('are refused once expired', async () => {
      const token = await server.createToken(alice.id, { name: 'expiring', scopes: ['api'] });
      expect(await tokenStatus(token)).toBe(200);
      const { rows } = await server.app.db.query<{ id: number }>(
        `UPDATE personal_access_tokens SET expires_at = current_date - 1 WHERE name = 'expiring' AND user_id = $1 RETURNING id`,
        [alice.id],
      );
      // The row was edited behind the service's back: drop its cached authentication, as the passing of a day would
      // (a cache hit re-checks expires_at, but the cached copy still holds the old date).
      server.app.services.tokens.forget({ tokenId: rows[0]!.id });
      expect(await tokenStatus(token)).toBe(401);
    });

    it('refuse an expiry date in the past', async () => {
      const response = await createOwn(alice.token, { name: 'past', scopes: ['api'], expires_at: '2000-01-01' });
      expect(response.status).toBe(400);
      expect(response.body.message).toHaveProperty('expires_at');
    });
  });

  describe('presenting a token', () => {
    it.each([
      ['the PRIVATE-TOKEN header', (token: string) => ({ path: '/api/v4/user', headers: { 'private-token': token } })],
      ['Authorization: Bearer', (token: string) => ({ path: '/api/v4/user', headers: { authorization: `Bearer ${token}` } })],
      ['?private_token=', (token: string) => ({ path: `/api/v4/user?private_token=${encodeURIComponent(token)}`, headers: {} })],
    ])('works through %s, and an invalid one is a 401', async (_where, place) => {
      const good = place(alice.token);
      const ok = await http(server.url, 'GET', good.path, { headers: good.headers });
      expect(ok.status).toBe(200);
      expect(ok.body.username).toBe(alice.username);
      const bad = place('glpat-not-a-real-token-000000');
      const refused = await http(server.url, 'GET', bad.path, { headers: bad.headers });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ message: '401 Unauthorized' });
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('is a 401 without any credentials on GET /user', async () => {
      const response = await api(server.url).get('/user');
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: '401 Unauthorized' });
    });

    it('with read_api reads but is refused a write with 403 insufficient_scope', async () => {
      const readOnly = await server.createToken(alice.id, { name: 'read-only', scopes: ['read_api'] });
      expect(await tokenStatus(readOnly)).toBe(200);
      const before = await countRows(server, 'projects');
      const response = await api(server.url, readOnly).post('/projects', { name: unique('nope') });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: 'insufficient_scope' });
      expect(await countRows(server, 'projects')).toBe(before);
    });

    it('with read_user reads /user but not projects', async () => {
      const userOnly = await server.createToken(alice.id, { name: 'read-user', scopes: ['read_user'] });
      expect(await tokenStatus(userOnly)).toBe(200);
      const projects = await api(server.url, userOnly).get('/projects');
      expect(projects.status).toBe(403);
      expect(projects.body).toMatchObject({ error: 'insufficient_scope' });
    });
  });

  // doc/api/rest/authentication.md: Sudo needs an administrator's token with the sudo scope.
  describe('the Sudo header', () => {
    it('is refused for a non-administrator (403 "Must be admin to use sudo")', async () => {
      const response = await api(server.url, alice.token).get('/user', { headers: { sudo: 'root' } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    });

    it('makes an administrator’s request act as the named user, never silently as the administrator', async () => {
      const response = await api(server.url, server.root.token).get('/user', { headers: { sudo: alice.username } });
      expect(response.status).toBe(200);
      expect(response.body.username).toBe(alice.username);
    });
  });

  describe('the tributary CLI', () => {
    const databaseUrlOf = (s: TestServer) => s.config.databaseUrl;

    it('creates a user and a token through the running server, and the printed token works', async () => {
      const username = unique('cli_live').replace(/-/g, '_');
      const env = { dataDir: server.dataDir, databaseUrl: databaseUrlOf(server) };
      const user = await runCli(['user', 'create', '--username', username, '--password', strongPassword()], env);
      expect(user.stderr).toBe('');
      expect(user.code).toBe(0);
      expect(user.stdout).toMatch(new RegExp(`Created user ${username} \\(id \\d+\\)`));
      const token = await runCli(['token', 'create', '--user', username, '--name', 'ci', '--scopes', 'api'], env);
      expect(token.code).toBe(0);
      const printed = token.stdout.trim();
      expect(printed).toMatch(/^glpat-\S+$/);
      const me = await gitbeakerClient(server.url, printed).Users.showCurrentUser();
      expect(me.username).toBe(username);
    });

    it('fails clearly for an unknown user and creates no token', async () => {
      const before = await countRows(server, 'personal_access_tokens');
      const env = { dataDir: server.dataDir, databaseUrl: databaseUrlOf(server) };
      const result = await runCli(['token', 'create', '--user', 'nobody-here', '--name', 'ci', '--scopes', 'api'], env);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('404 User Not Found');
      expect(await countRows(server, 'personal_access_tokens')).toBe(before);
    });

    it('works directly on a data directory no server is running on', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'trcli-'));
      const database = testDatabaseKind() === 'postgres' ? await createTestDatabase() : undefined;
      try {
        // The embedded database starts from the cached initialised copy (initdb is slow), as the harness does.
        if (!database) await seedPgliteDir(join(dataDir, 'pglite'));
        const env = { dataDir, databaseUrl: database?.url };
        const username = unique('cli_offline').replace(/-/g, '_');
        const user = await runCli(['user', 'create', '--username', username, '--password', strongPassword(), '--admin'], env);
        expect(user.code, user.stderr).toBe(0);
        const token = await runCli(['token', 'create', '--user', username, '--name', 'ci', '--scopes', 'api'], env);
        expect(token.code, token.stderr).toBe(0);
        const printed = token.stdout.trim();
        expect(printed).toMatch(/^glpat-\S+$/);

        const started = await startServerOn(dataDir, database?.url);
        try {
          const me = await gitbeakerClient(started.url, printed).Users.showCurrentUser();
          expect(me).toMatchObject({ username, is_admin: true });
        } finally {
          await started.close();
        }
      } finally {
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
