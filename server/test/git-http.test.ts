import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../src/platform/events.js';
import { testDatabaseKind } from '../src/test-support/database.js';
import { startTestServer, type TestServer, type TestUser } from '../src/test-support/server.js';
import { addMember, createProject, createUsers, unique, type ProjectInfo } from '../src/test-support/rest-fixtures.js';
import { eventually } from '../src/test-support/eventually.js';
import { ANONYMOUS, clone, commitFiles, makeRepo, push, pushCommit, remoteBranches, withGit, type Credentials } from '../src/test-support/git-client.js';
import { api } from '../src/test-support/http.js';

/** The stock git client over smart HTTP: authentication, permissions, protected branches, ref names, push records. */
describe(`git over HTTP (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let users: Record<'owner' | 'reporter' | 'developer' | 'maintainer' | 'stranger', TestUser>;
  let privateProject: ProjectInfo;
  let publicProject: ProjectInfo;
  let mainSha: string;

  const withToken = (user: TestUser): Credentials => ({ username: user.username, password: user.token });
  const withPassword = (user: TestUser): Credentials => ({ username: user.username, password: user.password });

  beforeAll(async () => {
    server = await startTestServer();
    users = await createUsers(server, ['owner', 'reporter', 'developer', 'maintainer', 'stranger'] as const);
    privateProject = await createProject(server, users.owner.token, { visibility: 'private' });
    publicProject = await createProject(server, users.owner.token, { visibility: 'public' });
    for (const role of ['reporter', 'developer', 'maintainer'] as const) {
      await addMember(server, users.owner.token, { project: privateProject.id }, users[role].id, role);
    }
    for (const project of [privateProject, publicProject]) {
      const pushed = await pushCommit(server.url, withToken(users.owner), project.path_with_namespace, 'main', { 'README.md': `# ${project.name}\n` });
      expect(pushed.result.code, pushed.result.stderr).toBe(0);
      if (project === privateProject) mainSha = pushed.sha;
    }
  });
  afterAll(() => server?.close());

  /** The private project's main branch as the server has it now. */
  const serverMain = () => withGit(server.url, withToken(users.owner), async (cli) => (await remoteBranches(cli, privateProject.path_with_namespace)).get('main'));

  describe('authentication', () => {
    it.each([
      ['a password', withPassword],
      ['a personal access token', withToken],
    ])('pushes with %s and clones back the same history', async (_how, credentialsOf) => {
      const project = await createProject(server, users.owner.token);
      await withGit(server.url, credentialsOf(users.owner), async (cli) => {
        const shas = await makeRepo(cli, 'src', [
          { message: 'One', files: { 'a.txt': 'a\n' } },
          { message: 'Two', files: { 'dir/b.txt': 'b\n' } },
        ]);
        const pushed = await push(cli, 'src', project.path_with_namespace, ['main']);
        expect(pushed.code, pushed.stderr).toBe(0);
        expect((await clone(cli, project.path_with_namespace, 'copy')).code).toBe(0);
        const log = await cli.git(['log', '--format=%H %s'], { cwd: 'copy' });
        expect(log.stdout.trim().split('\n')).toEqual([`${shas[1]} Two`, `${shas[0]} One`]);
        const tree = async (dir: string) => (await cli.git(['rev-parse', 'HEAD^{tree}'], { cwd: dir })).stdout;
        expect(await tree('copy')).toBe(await tree('src'));
      });
    });

    it('clones the project URL without ".git", as copied from the browser (GitLab redirects it)', async () => {
      await withGit(server.url, withToken(users.reporter), async (cli) => {
        const result = await cli.git(['clone', '-q', `${server.url}/${privateProject.path_with_namespace}`, 'copy'], { allowFailure: true });
        expect(result.code, result.stderr).toBe(0);
        expect((await cli.git(['rev-parse', 'HEAD'], { cwd: 'copy' })).stdout.trim()).toBe(mainSha);
      });
    });

    it('refuses a wrong password with "HTTP Basic: Access denied"', async () => {
      const result = await withGit(server.url, { username: users.owner.username, password: 'wrong-password' }, (cli) =>
        clone(cli, privateProject.path_with_namespace, 'copy'),
      );
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('HTTP Basic: Access denied');
      expect(result.stderr).toMatch(/Authentication failed/);
    });

    it('lets anyone clone a public project anonymously', async () => {
      await withGit(server.url, ANONYMOUS, async (cli) => {
        const result = await clone(cli, publicProject.path_with_namespace, 'copy');
        expect(result.code, result.stderr).toBe(0);
        expect(existsSync(join(cli.dir, 'copy', 'README.md'))).toBe(true);
      });
    });

    it('challenges an anonymous clone of a private project (401, authentication failed)', async () => {
      const result = await withGit(server.url, ANONYMOUS, (cli) => clone(cli, privateProject.path_with_namespace, 'copy'));
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/Authentication failed/);
      expect(result.stderr).not.toContain(privateProject.name);
    });

    it('tells a signed-in stranger the private project was not found (404)', async () => {
      const result = await withGit(server.url, withToken(users.stranger), (cli) => clone(cli, privateProject.path_with_namespace, 'copy'));
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("The project you were looking for could not be found or you don't have permission to view it.");
      expect(result.stderr).toMatch(/not found/);
    });

    it('lets a read_repository token clone but not push, and a write_repository token push', async () => {
      const readOnly = await server.createToken(users.developer.id, { scopes: ['read_repository'] });
      const readWrite = await server.createToken(users.developer.id, { scopes: ['write_repository'] });
      await withGit(server.url, { username: users.developer.username, password: readOnly }, async (cli) => {
        expect((await clone(cli, privateProject.path_with_namespace, 'copy')).code).toBe(0);
        await commitFiles(cli, 'copy', 'Scoped', { 'scoped.txt': 'x\n' });
        const pushed = await push(cli, 'copy', privateProject.path_with_namespace, [`HEAD:refs/heads/${unique('scoped')}`]);
        expect(pushed.code).not.toBe(0);
        expect(pushed.stderr).toMatch(/403/);
      });
      const pushed = await pushCommit(server.url, { username: users.developer.username, password: readWrite }, privateProject.path_with_namespace, unique('writer'));
      expect(pushed.result.code, pushed.result.stderr).toBe(0);
    });

    it('refuses a read_api token for git (it is an API scope)', async () => {
      const apiOnly = await server.createToken(users.developer.id, { scopes: ['read_api'] });
      const result = await withGit(server.url, { username: users.developer.username, password: apiOnly }, (cli) => clone(cli, privateProject.path_with_namespace, 'copy'));
      expect(result.code).not.toBe(0);
    });
  });

  describe('permissions and protected branches', () => {
    it('lets a Reporter clone a private project but not push', async () => {
      await withGit(server.url, withToken(users.reporter), async (cli) => {
        expect((await clone(cli, privateProject.path_with_namespace, 'copy')).code).toBe(0);
        await commitFiles(cli, 'copy', 'Reporter change', { 'r.txt': 'r\n' });
        const pushed = await push(cli, 'copy', privateProject.path_with_namespace, ['HEAD:refs/heads/reporter-branch']);
        expect(pushed.code).not.toBe(0);
        expect(pushed.stderr).toContain('You are not allowed to push code to this project.');
      });
    });

    it('refuses a Developer’s push to the protected default branch, but takes a feature branch', async () => {
      await withGit(server.url, withToken(users.developer), async (cli) => {
        expect((await clone(cli, privateProject.path_with_namespace, 'copy')).code).toBe(0);
        await commitFiles(cli, 'copy', 'Developer change', { 'd.txt': 'd\n' });
        const toMain = await push(cli, 'copy', privateProject.path_with_namespace, ['HEAD:refs/heads/main']);
        expect(toMain.code).not.toBe(0);
        expect(toMain.stderr).toContain('You are not allowed to push code to protected branches on this project.');
        expect(await serverMain()).toBe(mainSha);

        const feature = await push(cli, 'copy', privateProject.path_with_namespace, ['HEAD:refs/heads/feature/dev']);
        expect(feature.code, feature.stderr).toBe(0);
        const branches = await remoteBranches(cli, privateProject.path_with_namespace);
        expect(branches.get('feature/dev')).toBe((await cli.git(['rev-parse', 'HEAD'], { cwd: 'copy' })).stdout.trim());

        // An unprotected branch is theirs to delete.
        expect((await push(cli, 'copy', privateProject.path_with_namespace, [':refs/heads/feature/dev'])).code).toBe(0);
        expect((await remoteBranches(cli, privateProject.path_with_namespace)).has('feature/dev')).toBe(false);
      });
    });

    it('refuses a Maintainer’s force push and deletion of the default branch', async () => {
      await withGit(server.url, withToken(users.maintainer), async (cli) => {
        expect((await clone(cli, privateProject.path_with_namespace, 'copy')).code).toBe(0);
        await cli.git(['commit', '-q', '--amend', '-m', 'Rewritten history'], { cwd: 'copy' });
        const forced = await push(cli, 'copy', privateProject.path_with_namespace, ['+HEAD:refs/heads/main']);
        expect(forced.code).not.toBe(0);
        expect(forced.stderr).toContain('You are not allowed to force push code to a protected branch on this project.');

        const deleted = await push(cli, 'copy', privateProject.path_with_namespace, [':refs/heads/main']);
        expect(deleted.code).not.toBe(0);
        expect(deleted.stderr).toContain('You can only delete protected branches using the web interface.');
        expect(await serverMain()).toBe(mainSha);

        // A fast-forward push to the protected default branch is a Maintainer's right.
        await cli.git(['reset', '-q', '--hard', 'origin/main'], { cwd: 'copy' });
        const next = await commitFiles(cli, 'copy', 'Maintainer change', { 'm.txt': 'm\n' });
        const pushed = await push(cli, 'copy', privateProject.path_with_namespace, ['HEAD:refs/heads/main']);
        expect(pushed.code, pushed.stderr).toBe(0);
        expect(await serverMain()).toBe(next);
        mainSha = next;
      });
    });
  });

  describe('ref names that could pass for options or SHAs', () => {
    const trap = join(tmpdir(), unique('trap'));
    beforeAll(() => mkdirSync(trap, { recursive: true }));
    afterAll(() => rmSync(trap, { recursive: true, force: true }));

    it.each([
      ['an option-like name', () => `--output=${trap}/x`],
      ['"-h"', () => '-h'],
      ['a 40-hex name', () => 'deadbeef'.repeat(5)],
      ['a name with ".."', () => 'a..b'],
    ])('refuses %s, and no file appears', async (_case, nameOf) => {
      const name = nameOf();
      await withGit(server.url, withToken(users.maintainer), async (cli) => {
        expect((await clone(cli, privateProject.path_with_namespace, 'copy')).code).toBe(0);
        const pushed = await push(cli, 'copy', privateProject.path_with_namespace, [`HEAD:refs/heads/${name}`]);
        expect(pushed.code).not.toBe(0);
        // git itself refuses "a..b" before sending; the others reach the pre-receive hook.
        if (!name.includes('..')) expect(pushed.stderr).toContain(`Branch name is invalid: ${name}`);
        expect((await remoteBranches(cli, privateProject.path_with_namespace)).has(name)).toBe(false);
      });
      expect(readdirSync(trap)).toEqual([]);
    });
  });

  describe('what a push records', () => {
    it('writes one push_events row per ref and delivers repository.pushed', async () => {
      const project = await createProject(server, users.owner.token);
      const received: DomainEvent<'repository.pushed'>[] = [];
      const unsubscribe = server.app.events.subscribe('repository.pushed', (event) => {
        if (event.payload.projectId === project.id) received.push(event);
      });
      try {
        const shas = await withGit(server.url, withToken(users.owner), async (cli) => {
          const [first] = await makeRepo(cli, 'src', [{ message: 'First', files: { 'f.txt': '1\n' } }]);
          expect((await push(cli, 'src', project.path_with_namespace, ['main'])).code).toBe(0);
          const second = await commitFiles(cli, 'src', 'Second', { 'f.txt': '2\n' });
          const pushed = await push(cli, 'src', project.path_with_namespace, ['main', 'main:refs/heads/topic']);
          expect(pushed.code, pushed.stderr).toBe(0);
          return { first: first!, second };
        });

        const { rows } = await server.app.db.query<{ ref: string; old_sha: string; new_sha: string; user_id: number }>(
          'SELECT ref, old_sha, new_sha, user_id FROM push_events WHERE project_id = $1 ORDER BY id',
          [project.id],
        );
        const zero = '0'.repeat(40);
        expect(rows).toEqual([
          { ref: 'refs/heads/main', old_sha: zero, new_sha: shas.first, user_id: users.owner.id },
          expect.objectContaining({ ref: expect.any(String), new_sha: shas.second }),
          expect.objectContaining({ ref: expect.any(String), new_sha: shas.second }),
        ]);
        expect(rows.slice(1).map((row) => [row.ref, row.old_sha]).sort()).toEqual([
          ['refs/heads/main', shas.first],
          ['refs/heads/topic', zero],
        ]);

        await eventually(() => received.length === 2, { what: 'two repository.pushed events' });
        expect(received[0]!.payload).toMatchObject({ projectId: project.id, userId: users.owner.id, refs: [{ ref: 'refs/heads/main', oldSha: zero, newSha: shas.first }] });
        expect(received[1]!.payload.refs).toHaveLength(2);
        expect((await api(server.url, users.owner.token).get(`/projects/${project.id}`)).body.empty_repo).toBe(false);
      } finally {
        unsubscribe();
      }
    });

    it('makes the first pushed branch the default when it is not main', async () => {
      const project = await createProject(server, users.owner.token);
      expect(project).toMatchObject({ default_branch: 'main', empty_repo: true });
      await withGit(server.url, withToken(users.owner), async (cli) => {
        await makeRepo(cli, 'src', [{ message: 'On master', files: { 'm.txt': 'm\n' } }], 'master');
        expect((await push(cli, 'src', project.path_with_namespace, ['master'])).code).toBe(0);
        const symref = await cli.git(['ls-remote', '--symref', cli.repoUrl(project.path_with_namespace), 'HEAD']);
        expect(symref.stdout).toMatch(/^ref: refs\/heads\/master\tHEAD$/m);
        expect((await clone(cli, project.path_with_namespace, 'copy')).code).toBe(0);
        expect((await cli.git(['symbolic-ref', '--short', 'HEAD'], { cwd: 'copy' })).stdout.trim()).toBe('master');
      });
      const shown = await api(server.url, users.owner.token).get(`/projects/${project.id}`);
      expect(shown.body).toMatchObject({ default_branch: 'master', empty_repo: false });
      const { rows } = await server.app.db.query('SELECT name FROM protected_branches WHERE project_id = $1', [project.id]);
      expect(rows.map((row) => row.name)).toContain('master');
    });
  });

  describe('protocol versions', () => {
    it.each(['0', '2'])('clones with protocol version %s', async (version) => {
      await withGit(server.url, withToken(users.reporter), async (cli) => {
        const result = await cli.git(['-c', `protocol.version=${version}`, 'clone', cli.repoUrl(privateProject.path_with_namespace), 'copy'], {
          env: { GIT_TRACE_PACKET: '1' },
        });
        if (version === '2') expect(result.stderr).toMatch(/git< version 2/);
        else expect(result.stderr).not.toMatch(/git< version 2/);
        expect((await cli.git(['rev-parse', 'HEAD'], { cwd: 'copy' })).stdout.trim()).toBe(mainSha);
      });
    });

    it('answers every v2 capability advertisement alike, and only to callers who may read the code', async () => {
      const url = `${server.url}/${privateProject.path_with_namespace}.git/info/refs?service=git-upload-pack`;
      const basic = (user: TestUser) => `Basic ${Buffer.from(`${user.username}:${user.token}`).toString('base64')}`;
      const ask = async (headers: Record<string, string>) => {
        const response = await fetch(url, { headers: { 'git-protocol': 'version=2', ...headers } });
        return { status: response.status, type: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer()).toString('latin1') };
      };
      const first = await ask({ authorization: basic(users.reporter) });
      expect(first.status).toBe(200);
      expect(first.type).toBe('application/x-git-upload-pack-advertisement');
      expect(first.body).toMatch(/^001e# service=git-upload-pack\n0000000eversion 2\n/);
      expect(first.body).toContain('ls-refs');
      expect(first.body).not.toContain('refs/heads/main'); // v2 lists refs through ls-refs, never here
      expect(await ask({ authorization: basic(users.developer) })).toEqual(first);
      expect((await ask({})).status).toBe(401);
      expect((await ask({ authorization: basic(users.stranger) })).status).toBe(404);
    });

    it('fetches new commits with protocol version 2', async () => {
      await withGit(server.url, withToken(users.developer), async (cli) => {
        expect((await clone(cli, privateProject.path_with_namespace, 'copy', ['-c', 'protocol.version=2'])).code).toBe(0);
        const branch = unique('v2');
        const sha = await commitFiles(cli, 'copy', 'v2 push', { 'v2.txt': '2\n' });
        expect((await push(cli, 'copy', privateProject.path_with_namespace, [`HEAD:refs/heads/${branch}`], [])).code).toBe(0);
        expect((await clone(cli, privateProject.path_with_namespace, 'again', ['-c', 'protocol.version=2', '--branch', branch])).code).toBe(0);
        expect((await cli.git(['rev-parse', 'HEAD'], { cwd: 'again' })).stdout.trim()).toBe(sha);
      });
    });
  });
});
