import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** Archives, blame, blobs by SHA, commit refs and contributors, through gitbeaker where it has the call. */
describe(`repository reads API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let guest: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let first: string;
  let second: string;
  const scratch = mkdtempSync(join(tmpdir(), 'trreads-'));

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('reads-api');
    guest = await fx.member(project.id, 10);
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
    first = (await fx.root.Commits.create(project.id, 'main', 'Add code', [{ action: 'create', filePath: 'src/app.txt', content: 'one\ntwo\nthree\n' }], { authorName: 'Ann', authorEmail: 'ann@example.com' })).id;
    second = (await fx.root.Commits.create(project.id, 'main', 'Change two', [{ action: 'update', filePath: 'src/app.txt', content: 'one\nTWO\nthree\n' }], { authorName: 'Bob', authorEmail: 'bob@example.com' })).id;
    await fx.root.Tags.create(project.id, 'v1', first);
  });
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await fx?.close();
  });

  const projectPath = () => project.path_with_namespace.split('/').pop()!;

  it('streams tar.gz (default) and zip archives as GitLab names them (gitbeaker), with sha and path', async () => {
    const gz = await fx.call('GET', `/projects/${project.id}/repository/archive`);
    expect(gz.status).toBe(200);
    expect(gz.headers.get('content-type')).toBe('application/octet-stream');
    expect(gz.headers.get('content-disposition')).toBe(`attachment; filename="${projectPath()}-main-${second}.tar.gz"`);
    writeFileSync(join(scratch, 'a.tar.gz'), gz.raw);
    const listed = execFileSync('tar', ['tzf', join(scratch, 'a.tar.gz')], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(listed).toContain(`${projectPath()}-main-${second}/src/app.txt`);

    const zip = (await gitbeakerClient(fx.server.url, reporter.token).Repositories.showArchive(project.id, { fileType: 'zip', sha: first })) as unknown as Blob;
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    writeFileSync(join(scratch, 'b.zip'), bytes);
    const unzipDir = join(scratch, 'unzipped');
    execFileSync('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', join(scratch, 'b.zip'), unzipDir]);
    expect(readdirSync(unzipDir)).toEqual([`${projectPath()}-${first}-${first}`]);

    const sub = await fx.call('GET', `/projects/${project.id}/repository/archive.tar?path=src`);
    expect(sub.status).toBe(200);
    expect(sub.headers.get('content-disposition')).toBe(`attachment; filename="${projectPath()}-main-${second}-src.tar"`);
    writeFileSync(join(scratch, 'c.tar'), sub.raw);
    expect(execFileSync('tar', ['tf', join(scratch, 'c.tar')], { encoding: 'utf8' })).not.toContain('README.md');
    const bz2 = await fx.call('GET', `/projects/${project.id}/repository/archive.tar.bz2`);
    expect(bz2.raw.subarray(0, 3).toString()).toBe('BZh');
  });

  it('archive refuses bad input with a 4xx: an unknown format, ref or path', async () => {
    expect((await fx.call('GET', `/projects/${project.id}/repository/archive.rar`)).status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}/repository/archive?sha=no-such-ref`)).body).toEqual({ message: '404 Commit Not Found' });
    expect((await fx.call('GET', `/projects/${project.id}/repository/archive?path=nope`)).status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}/repository/archive?path=../etc`)).status).toBe(400);
    expect((await fx.call('GET', `/projects/${project.id}/repository/archive?sha=--output=/tmp/x`)).status).toBe(400);
  });

  it('blame answers GitLab runs of lines with their commits (gitbeaker), and range[start]/range[end]', async () => {
    const runs = await gitbeakerClient(fx.server.url, reporter.token).RepositoryFiles.allFileBlames(project.id, 'src/app.txt', 'main');
    expect(runs.map((r) => [r.commit.id, r.lines])).toEqual([
      [first, ['one']],
      [second, ['TWO']],
      [first, ['three']],
    ]);
    expect(runs[1]!.commit).toMatchObject({ author_name: 'Bob', author_email: 'bob@example.com', message: 'Change two', parent_ids: [first] });
    const ranged = await fx.call('GET', `/projects/${project.id}/repository/files/src%2Fapp.txt/blame?ref=main&range[start]=2&range[end]=9`);
    expect(ranged.body.map((r: { lines: string[] }) => r.lines)).toEqual([['TWO'], ['three']]);
    for (const query of ['range[start]=3&range[end]=2', 'range[start]=0&range[end]=2', 'range[start]=1', 'range[start]=a&range[end]=2', 'range[start]=9&range[end]=10']) {
      expect((await fx.call('GET', `/projects/${project.id}/repository/files/src%2Fapp.txt/blame?ref=main&${query}`)).status, query).toBe(400);
    }
    expect((await fx.call('GET', `/projects/${project.id}/repository/files/src%2Fapp.txt/blame`)).status).toBe(400);
    expect((await fx.call('GET', `/projects/${project.id}/repository/files/nope.txt/blame?ref=main`)).status).toBe(404);
  });

  it('blobs by SHA, as JSON and raw (gitbeaker), only from this project', async () => {
    const blobId = await fx.bareGit(project.id, ['rev-parse', `${second}:src/app.txt`]);
    // gitbeaker gives a text answer as a string
    const raw = (await gitbeakerClient(fx.server.url, reporter.token).Repositories.showBlobRaw(project.id, blobId)) as unknown;
    expect(typeof raw === 'string' ? raw : await (raw as Blob).text()).toBe('one\nTWO\nthree\n');
    const json = await fx.root.Repositories.showBlob(project.id, blobId.slice(0, 10));
    expect(json).toMatchObject({ sha: blobId, size: 14, encoding: 'base64', content: Buffer.from('one\nTWO\nthree\n').toString('base64') });
    const rawResponse = await fx.call('GET', `/projects/${project.id}/repository/blobs/${blobId}/raw`);
    expect(rawResponse.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(rawResponse.headers.get('x-content-type-options')).toBe('nosniff');
    // a commit is not a blob; nor is garbage
    expect((await fx.call('GET', `/projects/${project.id}/repository/blobs/${second}/raw`)).status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}/repository/blobs/HEAD/raw`)).status).toBe(404);
    const other = await fx.createProject('reads-other');
    expect((await fx.call('GET', `/projects/${other.id}/repository/blobs/${blobId}/raw`)).status).toBe(404);
  });

  it('commit refs list the branches and tags containing a commit (gitbeaker), by type', async () => {
    await fx.root.Branches.create(project.id, 'old', first);
    const all = await gitbeakerClient(fx.server.url, reporter.token).Commits.allReferences(project.id, first);
    expect(all).toEqual([
      { type: 'branch', name: 'main' },
      { type: 'branch', name: 'old' },
      { type: 'tag', name: 'v1' },
    ]);
    expect((await fx.call('GET', `/projects/${project.id}/repository/commits/${second}/refs?type=branch`)).body).toEqual([{ type: 'branch', name: 'main' }]);
    expect((await fx.call('GET', `/projects/${project.id}/repository/commits/${first}/refs?type=tag`)).body).toEqual([{ type: 'tag', name: 'v1' }]);
    expect((await fx.call('GET', `/projects/${project.id}/repository/commits/${first}/refs?type=note`)).status).toBe(400);
    expect((await fx.call('GET', `/projects/${project.id}/repository/commits/${'0'.repeat(40)}/refs`)).status).toBe(404);
  });

  it('contributors count commits per author email (gitbeaker), ordered as asked', async () => {
    const list = await gitbeakerClient(fx.server.url, reporter.token).Repositories.allContributors(project.id);
    const byEmail = Object.fromEntries(list.map((c) => [c.email, c.commits]));
    expect(byEmail).toMatchObject({ 'ann@example.com': 1, 'bob@example.com': 1 });
    expect(list[0]).toMatchObject({ additions: 0, deletions: 0 });
    const byName = (await fx.call('GET', `/projects/${project.id}/repository/contributors?order_by=name&sort=desc`)).body.map((c: { name: string }) => c.name);
    expect(byName).toEqual([...byName].sort().reverse());
    expect((await fx.call('GET', `/projects/${project.id}/repository/contributors?order_by=lines`)).status).toBe(400);
  });

  it('refuses a stranger (404) and a Guest of the private project (403) on every read', async () => {
    const blobId = await fx.bareGit(project.id, ['rev-parse', `${second}:src/app.txt`]);
    const paths = [
      '/repository/archive',
      '/repository/archive.zip',
      '/repository/files/src%2Fapp.txt/blame?ref=main',
      `/repository/blobs/${blobId}`,
      `/repository/blobs/${blobId}/raw`,
      `/repository/commits/${first}/refs`,
      '/repository/contributors',
    ];
    for (const path of paths) {
      expect((await fx.call('GET', `/projects/${project.id}${path}`, { token: stranger.token })).status, path).toBe(404);
      expect((await fx.call('GET', `/projects/${project.id}${path}`, { token: null })).status, path).toBe(404);
      expect((await fx.call('GET', `/projects/${project.id}${path}`, { token: guest.token })).status, path).toBe(403);
    }
  });
});
