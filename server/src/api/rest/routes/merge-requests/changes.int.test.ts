import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';

interface Diff {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  too_large: boolean;
  collapsed: boolean;
  diff: string;
  added_lines: number;
  removed_lines: number;
}

const LATIN1_NAME = Buffer.from('caf\xe9.txt', 'latin1'); // not valid UTF-8
const LONG_NAME = `${'deep/'.repeat(40)}${'l'.repeat(240)}.txt`;
const SUBMODULE_SHA = '2222222222222222222222222222222222222222';
const OTHER_SUBMODULE = ['3333333333333333333333333333333333333333', '4444444444444444444444444444444444444444'] as const;
/** A 1000-line new file: about 31 KB of hunk text, over the collapse limit (20 KB) and under the maximum (200 KB). */
const COLLAPSED_CONTENT = Array.from({ length: 1000 }, (_, i) => `collapsed line ${String(i).padStart(12, '0')}\n`).join('');

/** Commits, diffs, versions, raw diffs and participants over every kind of file change. */
describe(`merge request changes API (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let base: string;
  let head: string;
  let iid: number;

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('mr-changes');
    base = await fx.writeCommit(project.id, {
      parent: await fx.tip(project.id, 'main'),
      files: [
        { path: 'link', mode: '120000', content: 'README.md' },
        { path: 'was-file', content: 'plain\n' },
        { path: 'old-name.txt', content: `${Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n')}\n` },
        { path: 'vendor/other', mode: '160000', sha: OTHER_SUBMODULE[0] },
        { path: 'grows.txt', content: 'first\n' },
      ],
      message: 'Base',
    });
    await fx.setBranch(project.id, 'main', base);
    const first = await fx.writeCommit(project.id, {
      parent: base,
      files: [
        { path: LATIN1_NAME, content: 'latin\n' },
        { path: LONG_NAME, content: 'long\n' },
        { path: 'tab\there.txt', content: 'tab\n' },
        { path: 'new\nline.txt', content: 'newline\n' },
        { path: 'with space.txt', content: 'space\n' },
        { path: 'image.bin', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]) },
      ],
      message: 'Odd names and a binary file',
    });
    head = await fx.writeCommit(project.id, {
      parent: first,
      files: [
        { path: 'link', content: 'now a file\n' }, // symlink → file
        { path: 'was-file', mode: '120000', content: 'README.md' }, // file → symlink
        { path: 'vendor/lib', mode: '160000', sha: SUBMODULE_SHA },
        { path: 'new-name.txt', content: `${Array.from({ length: 20 }, (_, i) => (i === 19 ? 'changed' : `line ${i}`)).join('\n')}\n` },
        { path: 'huge.txt', content: `${'x'.repeat(100)}\n`.repeat(3000) }, // a 300 KB patch: too large
        { path: 'collapsed.txt', content: COLLAPSED_CONTENT },
        { path: 'grows.txt', content: `first\n${COLLAPSED_CONTENT}` }, // modified: only its patch tells it is over the collapse limit
        { path: 'vendor/other', mode: '160000', sha: OTHER_SUBMODULE[1] }, // a submodule moved to another commit
      ],
      remove: ['old-name.txt'],
      message: 'Types, a submodule, a rename and a huge file',
    });
    await fx.setBranch(project.id, 'odd', head);
    iid = (await fx.root.MergeRequests.create(project.id, 'odd', 'main', 'Every kind of change')).iid;
  });
  afterAll(() => fx?.close());

  const describeDiff = (d: Diff) => `${d.old_path}→${d.new_path} ${d.a_mode}/${d.b_mode}${d.new_file ? ' new' : ''}${d.deleted_file ? ' deleted' : ''}${d.renamed_file ? ' renamed' : ''}`;

  it('lists every file of the version with GitLab flags (names kept, types split in two)', async () => {
    const diffs = (await fx.root.MergeRequests.allDiffs(project.id, iid)) as unknown as Diff[];
    expect(diffs.map(describeDiff).sort()).toEqual(
      [
        'caf\uFFFD.txt→caf\uFFFD.txt 0/100644 new',
        'collapsed.txt→collapsed.txt 0/100644 new',
        'grows.txt→grows.txt 100644/100644',
        `${LONG_NAME}→${LONG_NAME} 0/100644 new`,
        'huge.txt→huge.txt 0/100644 new',
        'image.bin→image.bin 0/100644 new',
        'link→link 120000/0 deleted',
        'link→link 0/100644 new',
        'new\nline.txt→new\nline.txt 0/100644 new',
        'old-name.txt→new-name.txt 100644/100644 renamed',
        'tab\there.txt→tab\there.txt 0/100644 new',
        'vendor/lib→vendor/lib 0/160000 new',
        'vendor/other→vendor/other 160000/160000',
        'was-file→was-file 100644/0 deleted',
        'was-file→was-file 0/120000 new',
        'with space.txt→with space.txt 0/100644 new',
      ].sort(),
    );
    const byPath = (path: string, filter: (d: Diff) => boolean = () => true) => diffs.find((d) => d.new_path === path && filter(d))!;
    expect(byPath('huge.txt')).toMatchObject({ too_large: true, collapsed: true, diff: '', added_lines: 3000, removed_lines: 0 });
    expect(byPath('collapsed.txt')).toMatchObject({ too_large: false, collapsed: true, diff: '', added_lines: 1000, removed_lines: 0 });
    expect(byPath('grows.txt')).toMatchObject({ too_large: false, collapsed: true, diff: '', added_lines: 1000, removed_lines: 0 });
    expect(byPath('image.bin')).toMatchObject({ diff: 'Binary files /dev/null and b/image.bin differ\n', added_lines: 0, removed_lines: 0, collapsed: false });
    expect(byPath('vendor/other')).toMatchObject({ diff: `@@ -1 +1 @@\n-Subproject commit ${OTHER_SUBMODULE[0]}\n+Subproject commit ${OTHER_SUBMODULE[1]}\n`, added_lines: 1, removed_lines: 1 });
    expect(byPath('link', (d) => d.deleted_file)).toMatchObject({ diff: '@@ -1 +0,0 @@\n-README.md\n\\ No newline at end of file\n', added_lines: 0, removed_lines: 1 });
    expect(byPath('tab\there.txt').diff).toBe('@@ -0,0 +1 @@\n+tab\n');
    expect(byPath('new\nline.txt').diff).toBe('@@ -0,0 +1 @@\n+newline\n');
    expect(byPath('vendor/lib').diff).toBe(`@@ -0,0 +1 @@\n+Subproject commit ${SUBMODULE_SHA}\n`);
    expect(byPath('link', (d) => d.new_file).diff).toBe('@@ -0,0 +1 @@\n+now a file\n');
    expect(byPath('was-file', (d) => d.new_file).diff).toBe('@@ -0,0 +1 @@\n+README.md\n\\ No newline at end of file\n');
    expect(byPath('new-name.txt').diff).toContain('-line 19\n+changed\n');
    expect(byPath('caf\uFFFD.txt').diff).toBe('@@ -0,0 +1 @@\n+latin\n');
  });

  it('pages the diffs: pages put together equal the whole list, with pagination headers', async () => {
    const all = await fx.call<Diff[]>('GET', `/projects/${project.id}/merge_requests/${iid}/diffs?per_page=100`);
    const pages: Diff[] = [];
    for (let page = 1; page <= 6; page++) {
      const response = await fx.call<Diff[]>('GET', `/projects/${project.id}/merge_requests/${iid}/diffs?per_page=3&page=${page}`);
      expect(response.headers.get('x-total')).toBe('16');
      expect(response.headers.get('x-total-pages')).toBe('6');
      pages.push(...response.body);
    }
    expect(pages).toEqual(all.body);
    const unified = await fx.call<Diff[]>('GET', `/projects/${project.id}/merge_requests/${iid}/diffs?unidiff=true&per_page=100`);
    expect(unified.body.find((d) => d.new_path === 'with space.txt')!.diff).toBe('--- /dev/null\n+++ b/with space.txt\n@@ -0,0 +1 @@\n+space\n');
  });

  it('shows changes (deprecated shape) with every diff and the merge request fields', async () => {
    const changes = await fx.root.MergeRequests.showChanges(project.id, iid);
    expect(changes).toMatchObject({ iid, changes_count: '16', overflow: false, diff_refs: { base_sha: base, start_sha: base, head_sha: head } });
    // The same files with the same flags, counts and text as the paginated diffs.
    expect(changes.changes).toEqual(await fx.root.MergeRequests.allDiffs(project.id, iid));
  });

  it('lists the commits newest first, paginated with a total', async () => {
    const commits = await fx.root.MergeRequests.allCommits(project.id, iid);
    expect(commits.map((commit) => commit.title)).toEqual(['Types, a submodule, a rename and a huge file', 'Odd names and a binary file']);
    expect(commits[0]).toMatchObject({ id: head, web_url: `${fx.server.url}/${project.path_with_namespace}/-/commit/${head}` });
    const page = await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}/commits?per_page=1&page=2`);
    expect(page.body.map((commit: { title: string }) => commit.title)).toEqual(['Odd names and a binary file']);
    expect(page.headers.get('x-total')).toBe('2');
  });

  it('returns a version with its commits and diffs', async () => {
    const [version] = await fx.root.MergeRequests.allDiffVersions(project.id, iid);
    expect(version).toMatchObject({ head_commit_sha: head, base_commit_sha: base, start_commit_sha: base, state: 'collected', real_size: '16' });
    const detail = await fx.root.MergeRequests.showDiffVersion(project.id, iid, version!.id);
    expect(detail.commits.map((commit) => commit.id)).toEqual([head, (await fx.rawGit(project.id, ['rev-parse', `${head}~1`])).toString().trim()]);
    expect(detail.diffs).toEqual(await fx.root.MergeRequests.allDiffs(project.id, iid));
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}/versions/999999`)).status).toBe(404);
  });

  it('opens one file of a version on demand: a collapsed file with its patch, a too large one still without', async () => {
    const [version] = await fx.root.MergeRequests.allDiffVersions(project.id, iid);
    const open = (path: string) => fx.call<Diff[]>('GET', `/projects/${project.id}/merge_requests/${iid}/versions/${version!.id}/diffs?path=${encodeURIComponent(path)}`);
    const collapsed = await open('collapsed.txt');
    expect(collapsed.status).toBe(200);
    expect(collapsed.body).toMatchObject([{ new_path: 'collapsed.txt', collapsed: false, too_large: false, added_lines: 1000 }]);
    expect(collapsed.body[0]!.diff).toBe(`@@ -0,0 +1,1000 @@\n${COLLAPSED_CONTENT.replace(/^/gm, '+').slice(0, -1)}`);
    expect((await open('grows.txt')).body).toMatchObject([{ collapsed: false, added_lines: 1000, diff: expect.stringMatching(/^@@ -1 \+1,1001 @@\n first\n\+collapsed line 000000000000\n/) }]);
    expect((await open('huge.txt')).body).toMatchObject([{ too_large: true, collapsed: true, diff: '', added_lines: 3000 }]);
    // A type change is two files under one path; a rename answers to either of its paths.
    expect((await open('link')).body.map((d) => [d.deleted_file, d.new_file])).toEqual([[true, false], [false, true]]);
    expect((await open('old-name.txt')).body.map((d) => d.new_path)).toEqual(['new-name.txt']);
    expect((await open('tab\there.txt')).body[0]!.diff).toBe('@@ -0,0 +1 @@\n+tab\n');
    expect((await open('caf\uFFFD.txt')).body[0]!.diff).toBe('@@ -0,0 +1 @@\n+latin\n');
    expect(await open('nope.txt')).toMatchObject({ status: 404, body: { message: '404 File Not Found' } });
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}/versions/${version!.id}/diffs`)).status).toBe(400);
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}/versions/999999/diffs?path=collapsed.txt`)).status).toBe(404);
    const stranger = await fx.server.createUser();
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}/versions/${version!.id}/diffs?path=collapsed.txt`, { token: stranger.token })).status).toBe(404);
  });

  it('serves the raw diff as text/plain, bytes as git wrote them', async () => {
    const response = await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}/raw_diffs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.raw.includes(Buffer.concat([Buffer.from('diff --git a/'), LATIN1_NAME]))).toBe(true);
    expect(response.raw.toString('utf8')).toContain('diff --git a/with space.txt b/with space.txt');
    expect(response.raw.toString('utf8')).toContain('Binary files /dev/null and b/image.bin differ');
    expect(response.raw.toString('utf8')).toContain('rename from old-name.txt');
  });

  it('lists participants: the author, assignees and reviewers who can read it', async () => {
    const reviewer = await fx.member(project.id, 20);
    await fx.root.MergeRequests.edit(project.id, iid, { reviewerIds: [reviewer.id], assigneeIds: [fx.server.root.id] });
    const participants = await fx.root.MergeRequests.allParticipants(project.id, iid);
    expect(participants.map((user) => user.username)).toEqual(['root', reviewer.username]);
  });
});
