import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { commitSymlink, startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** Tree and files API: reads, plumbing writes, protected branches, conflicts. */
describe(`repository tree and files API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('files-api');
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
  });

  afterAll(async () => {
    await fx?.close();
  });

  const files = (path: string, query = '') => `/projects/${project.id}/repository/files/${encodeURIComponent(path)}${query}`;

  it('creates, reads and edits files through gitbeaker (as Maintainer on the protected default branch)', async () => {
    const created = await fx.root.RepositoryFiles.create(project.id, 'docs/guide.md', 'main', '# Guide\n', 'Add guide');
    expect(created).toEqual({ file_path: 'docs/guide.md', branch: 'main' });
    const file = await fx.root.RepositoryFiles.show(project.id, 'docs/guide.md', 'main');
    const head = await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main']);
    expect(file).toMatchObject({
      file_name: 'guide.md',
      file_path: 'docs/guide.md',
      size: 8,
      encoding: 'base64',
      content: Buffer.from('# Guide\n').toString('base64'),
      content_sha256: createHash('sha256').update('# Guide\n').digest('hex'),
      ref: 'main',
      commit_id: head,
      last_commit_id: head,
      execute_filemode: false,
    });
    expect(file.blob_id).toBe(await fx.bareGit(project.id, ['rev-parse', 'main:docs/guide.md']));

    await fx.root.RepositoryFiles.edit(project.id, 'docs/guide.md', 'main', '# Guide v2\n', 'Edit guide', { lastCommitId: head } as never);
    expect(await fx.root.RepositoryFiles.showRaw(project.id, 'docs/guide.md', 'main')).toBe('# Guide v2\n');
    const me = await fx.root.Users.showCurrentUser();
    const log = await fx.bareGit(project.id, ['log', '--format=%s|%an|%cn', '-2', 'main']);
    expect(log.split('\n')).toEqual([`Edit guide|${me.name}|${me.name}`, `Add guide|${me.name}|${me.name}`]);
  });

  it('answers HEAD with X-Gitlab-* headers and no body', async () => {
    const response = await fx.call('HEAD', files('docs/guide.md', '?ref=main'));
    expect(response.status).toBe(200);
    expect(response.raw.length).toBe(0);
    expect(response.headers.get('x-gitlab-file-name')).toBe('guide.md');
    expect(response.headers.get('x-gitlab-file-path')).toBe('docs/guide.md');
    expect(response.headers.get('x-gitlab-ref')).toBe('main');
    expect(response.headers.get('x-gitlab-size')).toBe('11');
    expect(response.headers.get('x-gitlab-content-sha256')).toBe(createHash('sha256').update('# Guide v2\n').digest('hex'));
    expect(response.headers.get('x-gitlab-last-commit-id')).toMatch(/^[0-9a-f]{40}$/);
    expect(response.headers.get('x-gitlab-execute-filemode')).toBe('false');
  });

  it('serves raw files as text/plain or octet-stream with nosniff, never HTML', async () => {
    await fx.root.RepositoryFiles.create(project.id, 'page.html', 'main', '<script>alert(1)</script>', 'Add page');
    const html = await fx.call('GET', files('page.html', '/raw?ref=main'));
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html.headers.get('content-security-policy')).toContain('sandbox');
    expect(html.body).toBe('<script>alert(1)</script>');

    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10]);
    await fx.call('POST', files('logo.png'), { body: { branch: 'main', commit_message: 'Add logo', content: bytes.toString('base64'), encoding: 'base64' } });
    const binary = await fx.call('GET', files('logo.png', '/raw'));
    expect(binary.headers.get('content-type')).toBe('application/octet-stream');
    expect(binary.raw.equals(bytes)).toBe(true);
  });

  it('lists the tree with GitLab entries, recursively and by path, with both pagination styles', async () => {
    const root = await fx.root.Repositories.allRepositoryTrees(project.id);
    expect(root.map((e) => [e.name, e.type])).toEqual(
      expect.arrayContaining([
        ['README.md', 'blob'],
        ['docs', 'tree'],
      ]),
    );
    const docs = root.find((entry) => entry.name === 'docs')!;
    expect(docs).toMatchObject({ path: 'docs', mode: '040000' });
    expect(docs.id).toMatch(/^[0-9a-f]{40}$/);

    const inDocs = await fx.call('GET', `/projects/${project.id}/repository/tree?path=docs&ref=main`);
    expect(inDocs.body).toEqual([expect.objectContaining({ name: 'guide.md', path: 'docs/guide.md', type: 'blob', mode: '100644' })]);
    const recursive = await fx.call('GET', `/projects/${project.id}/repository/tree?recursive=true&per_page=100`);
    expect(recursive.body.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['docs', 'docs/guide.md', 'README.md']));

    const paged = await fx.call('GET', `/projects/${project.id}/repository/tree?per_page=1&page=2`);
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('x-page')).toBe('2');
    const keyset = await fx.call('GET', `/projects/${project.id}/repository/tree?pagination=keyset&per_page=1`);
    expect(keyset.headers.get('link')).toContain('page_token=');
    const all = await fx.root.Repositories.allRepositoryTrees(project.id, { pagination: 'keyset', perPage: 1 } as never);
    expect(all.length).toBe(root.length);

    expect(await fx.call('GET', `/projects/${project.id}/repository/tree?ref=nope`)).toMatchObject({ status: 404, body: { message: '404 Tree Not Found' } });
    expect(await fx.call('GET', `/projects/${project.id}/repository/tree?path=missing`)).toMatchObject({ status: 404, body: { message: '404 Tree Not Found' } });
    expect((await fx.call('GET', `/projects/${project.id}/repository/tree?path=README.md`)).status).toBe(404);
  });

  it('answers 404 for unknown files and refs and 400 without ref', async () => {
    expect(await fx.call('GET', files('nope.txt', '?ref=main'))).toMatchObject({ status: 404, body: { message: '404 File Not Found' } });
    expect(await fx.call('GET', files('README.md', '?ref=nope'))).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(await fx.call('GET', files('docs', '?ref=main'))).toMatchObject({ status: 404 });
    expect((await fx.call('GET', files('README.md'))).status).toBe(400);
  });

  it('refuses a Developer on the protected default branch (403) and writes nothing', async () => {
    const before = await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main']);
    const asDeveloper = await fx.call('POST', files('dev.txt'), { token: developer.token, body: { branch: 'main', commit_message: 'x', content: 'x' } });
    expect(asDeveloper).toMatchObject({ status: 403, body: { message: 'You are not allowed to push into this branch' } });
    const put = await fx.call('PUT', files('README.md'), { token: developer.token, body: { branch: 'main', commit_message: 'x', content: 'x' } });
    expect(put.status).toBe(403);
    const asReporter = await fx.call('POST', files('rep.txt'), { token: reporter.token, body: { branch: 'feature', start_branch: 'main', commit_message: 'x', content: 'x' } });
    expect(asReporter.status).toBe(403);
    expect(await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main'])).toBe(before);
  });

  it('lets a Developer commit to a new branch with start_branch, recorded as a push', async () => {
    const asDeveloper = gitbeakerClient(fx.server.url, developer.token);
    await asDeveloper.RepositoryFiles.create(project.id, 'dev.txt', 'dev-branch', 'from a developer\n', 'Developer change', {
      startBranch: 'main',
      authorName: 'Ada Lovelace',
      authorEmail: 'ada@example.com',
    } as never);
    const log = await fx.bareGit(project.id, ['log', '-1', '--format=%an <%ae>|%cn <%ce>|%s', 'dev-branch']);
    expect(log).toBe(`Ada Lovelace <ada@example.com>|${developer.username} <${developer.username}@example.com>|Developer change`);
    const { rows } = await fx.server.app.db.query<{ user_id: number; old_sha: string }>('SELECT user_id, old_sha FROM push_events WHERE project_id = $1 AND ref = $2', [
      project.id,
      'refs/heads/dev-branch',
    ]);
    expect(rows.map((row) => [Number(row.user_id), row.old_sha])).toEqual([[developer.id, '0'.repeat(40)]]);

    const exists = await fx.call('POST', files('again.txt'), { token: developer.token, body: { branch: 'dev-branch', start_branch: 'main', commit_message: 'x', content: 'x' } });
    expect(exists).toMatchObject({ status: 400, body: { message: "A branch called 'dev-branch' already exists. Switch to that branch in order to make changes" } });
    const noStart = await fx.call('POST', files('again.txt'), { body: { branch: 'missing', commit_message: 'x', content: 'x' } });
    expect(noStart).toMatchObject({ status: 400, body: { message: 'You can only create or edit files when you are on a branch' } });
  });

  it('answers 400 with GitLab messages for existing, missing and changed files', async () => {
    const exists = await fx.call('POST', files('README.md'), { body: { branch: 'main', commit_message: 'x', content: 'x' } });
    expect(exists).toMatchObject({ status: 400, body: { message: 'A file with this name already exists' } });
    const missing = await fx.call('PUT', files('nope.txt'), { body: { branch: 'main', commit_message: 'x', content: 'x' } });
    expect(missing).toMatchObject({ status: 400, body: { message: "A file with this name doesn't exist" } });
    const stale = await fx.call('PUT', files('README.md'), {
      body: { branch: 'main', commit_message: 'x', content: 'x', last_commit_id: '0123456789012345678901234567890123456789' },
    });
    expect(stale).toMatchObject({ status: 400, body: { message: 'You are attempting to update a file that has changed since you started editing it.' } });
    const badEncoding = await fx.call('POST', files('e.txt'), { body: { branch: 'main', commit_message: 'x', content: 'x', encoding: 'hex' } });
    expect(badEncoding.status).toBe(400);
    const noMessage = await fx.call('POST', files('e.txt'), { body: { branch: 'main', content: 'x' } });
    expect(noMessage.status).toBe(400);
  });

  it('deletes files with parameters in the query string (204), as gitbeaker sends them', async () => {
    await fx.root.RepositoryFiles.remove(project.id, 'page.html', 'main', 'Remove page');
    expect((await fx.call('GET', files('page.html', '?ref=main'))).status).toBe(404);
    const raw = await fx.call('DELETE', files('logo.png', '?branch=main&commit_message=Remove%20logo'));
    expect(raw.status).toBe(204);
  });

  it('sets and keeps the executable bit', async () => {
    await fx.call('POST', files('run.sh'), { body: { branch: 'main', commit_message: 'Add script', content: '#!/bin/sh\n', execute_filemode: true } });
    expect((await fx.call('GET', files('run.sh', '?ref=main'))).body.execute_filemode).toBe(true);
    await fx.call('PUT', files('run.sh'), { body: { branch: 'main', commit_message: 'Edit script', content: '#!/bin/sh\necho\n' } });
    expect((await fx.call('GET', files('run.sh', '?ref=main'))).body.execute_filemode).toBe(true);
  });

  it('makes the first commit of an empty project through the files API, as a push', async () => {
    const empty = await fx.root.Projects.create({ name: 'empty-files' });
    expect(await fx.root.Branches.all(empty.id)).toEqual([]);
    expect((await fx.call('GET', `/projects/${empty.id}/repository/tree`)).status).toBe(404);
    expect((await fx.call('GET', `/projects/${empty.id}/repository/commits`)).body).toEqual([]);
    await fx.root.RepositoryFiles.create(empty.id, 'README.md', 'main', 'hello\n', 'First');
    const [main] = await fx.root.Branches.all(empty.id);
    expect(main).toMatchObject({ name: 'main', default: true, commit: { title: 'First', parent_ids: [] } });
    const project = await fx.root.Projects.show(empty.id);
    expect(project.empty_repo).toBe(false);
  });

  it('returns a symlink as a blob of its link text and overwrites it with a regular file, never following it', async () => {
    await commitSymlink(fx, project.id, 'main', 'link', '/etc/passwd');
    await commitSymlink(fx, project.id, 'main', 'hook', '../../hooks/post-receive');
    const tree = await fx.call('GET', `/projects/${project.id}/repository/tree`);
    expect(tree.body.find((e: { name: string }) => e.name === 'link')).toMatchObject({ type: 'blob', mode: '120000' });
    const shown = await fx.call('GET', files('link', '?ref=main'));
    expect(Buffer.from(shown.body.content, 'base64').toString()).toBe('/etc/passwd');
    expect((await fx.call('GET', files('link', '/raw'))).body).toBe('/etc/passwd');

    const written = await fx.call('PUT', files('hook'), { body: { branch: 'main', commit_message: 'Write through?', content: '#!/bin/sh\ntouch /tmp/pwned\n' } });
    expect(written.status).toBe(200);
    expect(await fx.bareGit(project.id, ['ls-tree', 'main', 'hook'])).toMatch(/^100644 blob /);
    expect(await fx.bareGit(project.id, ['cat-file', '-p', 'main:hook'])).toBe('#!/bin/sh\ntouch /tmp/pwned');
    expect(existsSync(join(fx.repoPath(project.id), 'hooks', 'post-receive'))).toBe(false);
  });
});
