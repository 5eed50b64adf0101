import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './database.js';
import { gitbeakerClient, gitCli, startTestServer, type GitCli, type TestServer } from './server.js';

/** The harness's own smoke test: a real server, the npm GitLab client and the git client. */
describe(`startTestServer (${testDatabaseKind()})`, () => {
  let server: TestServer;
  let git: GitCli | undefined;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await git?.close();
    await server?.close();
  });

  it('listens on 127.0.0.1 with root and a working root token', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const api = gitbeakerClient(server.url, server.root.token);
    const me = await api.Users.showCurrentUser();
    expect(me.username).toBe('root');
    expect(me.is_admin).toBe(true);
  });

  it('uses the database of the current project', () => {
    expect(server.app.db.kind).toBe(testDatabaseKind());
    expect(server.config.databaseUrl === undefined).toBe(testDatabaseKind() === 'pglite');
  });

  it('signs root in with the generated password', async () => {
    const response = await fetch(`${server.url}/-/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'root', password: server.root.password }),
    });
    expect(response.status).toBe(201);
  });

  it('creates users with tokens', async () => {
    const user = await server.createUser();
    const me = await gitbeakerClient(server.url, user.token).Users.showCurrentUser();
    expect(me.username).toBe(user.username);
    expect(me.is_admin).toBeFalsy();
  });

  it('pushes and clones with the git client over HTTP', async () => {
    const api = gitbeakerClient(server.url, server.root.token);
    const project = await api.Projects.create({ name: 'harness-smoke' });
    git = gitCli({ url: server.url, username: 'root', password: server.root.token });
    const url = git.repoUrl(String(project.path_with_namespace));

    await git.git(['init', '-q', 'source']);
    await git.git(['commit', '-q', '--allow-empty', '-m', 'First'], { cwd: 'source' });
    await git.git(['push', '-q', url, 'HEAD:refs/heads/main'], { cwd: 'source' });

    const remote = await git.git(['ls-remote', url]);
    expect(remote.stdout).toMatch(/^[0-9a-f]{40}\trefs\/heads\/main$/m);
    await git.git(['clone', '-q', url, 'copy']);
    const log = await git.git(['log', '--format=%s'], { cwd: 'copy' });
    expect(log.stdout.trim()).toBe('First');
  });

  it('refuses git without credentials instead of prompting', async () => {
    const anonymous = gitCli({ url: server.url, username: '', password: '' });
    try {
      const result = await anonymous.git(['ls-remote', anonymous.repoUrl('root/harness-smoke')], { allowFailure: true });
      expect(result.code).not.toBe(0);
    } finally {
      await anonymous.close();
    }
  });

  it('cleans up on close', async () => {
    const other = await startTestServer();
    await other.close();
    await other.close();
    expect(existsSync(other.dataDir)).toBe(false);
  });
});
