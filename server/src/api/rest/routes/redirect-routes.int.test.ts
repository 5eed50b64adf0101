import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitCli, type GitCli, type TestUser } from '../../../test-support/server.js';

/**
 * GitLab's redirect_routes: after a project or group is renamed or transferred its old path
 * still works, on the API (gitbeaker), web pages (302 to the new path), git clone and git push
 * (with GitLab's "was moved" message), until another project takes the path; a stranger is
 * never told where a private project went.
 */
describe(`old paths of renamed and moved projects and groups (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let developer: TestUser;
  let stranger: TestUser;
  const clis: GitCli[] = [];

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    stranger = await fx.server.createUser();
  });
  afterAll(async () => {
    for (const cli of clis) await cli.close();
    await fx?.close();
  });

  const web = (path: string, token?: string) =>
    fetch(`${fx.server.url}${path}`, { redirect: 'manual', headers: token ? { 'private-token': token } : {} });
  const cliFor = (user: TestUser) => {
    const cli = gitCli({ url: fx.server.url, username: user.username, password: user.token });
    clis.push(cli);
    return cli;
  };

  it('a renamed project: the API, web pages and git at the old path reach it', async () => {
    const project = await fx.createProject('before-rename');
    developer = await fx.member(project.id, 30);
    const oldPath = project.path_with_namespace;
    const renamed = await fx.root.Projects.edit(project.id, { path: 'after-rename' });
    const newPath = renamed.path_with_namespace as string;
    expect(newPath).toMatch(/\/after-rename$/);

    // REST: the old path finds the project (gitbeaker encodes it as old%2Fpath)
    expect(await fx.root.Projects.show(oldPath)).toMatchObject({ id: project.id, path_with_namespace: newPath });
    expect((await fx.call('GET', `/projects/${encodeURIComponent(oldPath)}/repository/branches`)).status).toBe(200);

    // web: 302 to the same page at the new path
    const page = await web(`/${oldPath}/-/merge_requests?state=opened`, fx.server.root.token);
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`/${newPath}/-/merge_requests?state=opened`);

    // git: clone the old URL, push to it with GitLab's message
    const cli = cliFor(developer);
    await cli.git(['clone', '-q', cli.repoUrl(oldPath), 'work']);
    await cli.git(['commit', '-q', '--allow-empty', '-m', 'pushed to the old path'], { cwd: 'work' });
    const pushed = await cli.git(['push', 'origin', 'HEAD:refs/heads/from-old-path'], { cwd: 'work' });
    expect(pushed.stderr).toContain(`remote: Project '${oldPath}' was moved to '${newPath}'.`);
    expect(pushed.stderr).toContain('remote: Please update your Git remote:');
    expect(pushed.stderr).toContain(`remote:   git remote set-url origin ${fx.server.url}/${newPath}.git`);
    expect((await fx.root.Branches.show(project.id, 'from-old-path')).name).toBe('from-old-path');
  });

  it('a private project’s old path tells a stranger nothing: 404 on the API, no redirect on the web, no clone', async () => {
    const project = await fx.createProject('secret-before');
    const oldPath = project.path_with_namespace;
    await fx.root.Projects.edit(project.id, { path: 'secret-after' });
    expect((await fx.call('GET', `/projects/${encodeURIComponent(oldPath)}`, { token: stranger.token })).status).toBe(404);
    expect((await web(`/${oldPath}`, stranger.token)).status).not.toBe(302);
    const cli = cliFor(stranger);
    expect((await cli.git(['ls-remote', cli.repoUrl(oldPath)], { allowFailure: true })).code).not.toBe(0);
  });

  it('a renamed group: its pages, and its projects on every surface, follow to the new path', async () => {
    const group = await fx.root.Groups.create('Moving group', 'moving-group');
    const created = await fx.root.Projects.create({ name: 'inside', namespaceId: group.id as number, initializeWithReadme: true });
    await fx.root.Groups.edit(group.id as number, { path: 'moved-group' });
    expect(await fx.root.Projects.show('moving-group/inside')).toMatchObject({ id: created.id, path_with_namespace: 'moved-group/inside' });
    const groupPage = await web('/groups/moving-group/-/settings', fx.server.root.token);
    expect(groupPage.status).toBe(302);
    expect(groupPage.headers.get('location')).toBe('/groups/moved-group/-/settings');
    const projectPage = await web('/moving-group/inside/-/tree/main', fx.server.root.token);
    expect(projectPage.headers.get('location')).toBe('/moved-group/inside/-/tree/main');
    const cli = cliFor((await fx.server.createUser({ admin: true })) as TestUser);
    expect((await cli.git(['ls-remote', '--heads', cli.repoUrl('moving-group/inside')])).stdout).toContain('refs/heads/main');
  });

  it('a transferred project keeps its old path until another project takes it', async () => {
    const target = await fx.root.Groups.create('Transfer target', 'transfer-target');
    const moved = await fx.createProject('transferred');
    const oldPath = moved.path_with_namespace;
    await fx.root.Projects.transfer(moved.id, target.id as number);
    expect(await fx.root.Projects.show(oldPath)).toMatchObject({ id: moved.id, path_with_namespace: 'transfer-target/transferred' });

    // a new project at the old path takes it over: the API, web and git now mean the new one
    const successor = await fx.createProject('transferred');
    expect(successor.path_with_namespace).toBe(oldPath);
    expect(await fx.root.Projects.show(oldPath)).toMatchObject({ id: successor.id });
    expect((await web(`/${oldPath}`, fx.server.root.token)).status).not.toBe(302);
  });

  it('a deleted project takes its old paths with it', async () => {
    const project = await fx.createProject('doomed-before');
    const oldPath = project.path_with_namespace;
    await fx.root.Projects.edit(project.id, { path: 'doomed-after' });
    await fx.root.Projects.remove(project.id);
    expect((await fx.call('GET', `/projects/${encodeURIComponent(oldPath)}`)).status).toBe(404);
  });
});
