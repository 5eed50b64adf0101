import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitArgumentError, GitCommandError, InvalidTreePathError } from './errors.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';
import { readBlob, readBlobAt, readBlobsAt, readEntry, readTree, treeOf, treesOf } from './tree.js';

describe('trees and blobs on linear-history', () => {
  let scenario: Scenario;
  let repo: string;

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    repo = scenario.repo;
  });
  afterAll(() => scenario.cleanup());

  it('lists the root and a directory', async () => {
    const root = await readTree(repo, 'main');
    expect(root?.map((entry) => [entry.type, entry.path, entry.mode])).toEqual([
      ['blob', 'README.md', '100644'],
      ['tree', 'docs', '040000'],
      ['tree', 'src', '040000'],
    ]);
    expect(await readTree(repo, 'main', 'src')).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{40}$/), name: 'a.txt', type: 'blob', path: 'src/a.txt', mode: '100644', size: 14 }]);
    expect((await readTree(repo, 'main', 'src/'))?.[0]?.path).toBe('src/a.txt');
  });

  it('lists recursively, trees included', async () => {
    const all = await readTree(repo, 'main', undefined, { recursive: true });
    expect(all?.map((entry) => entry.path)).toEqual(['README.md', 'docs', 'docs/guide.md', 'src', 'src/a.txt']);
  });

  it('returns null for a missing ref, directory, or a file', async () => {
    expect(await readTree(repo, 'nope')).toBeNull();
    expect(await readTree(repo, 'main', 'missing')).toBeNull();
    expect(await readTree(repo, 'main', 'README.md')).toBeNull();
  });

  it('reads a file with its blob id, mode and size', async () => {
    const readme = await readBlobAt(repo, 'main', 'README.md');
    expect(readme?.content.toString()).toBe('# Project\n\nÜber naïve café\n');
    expect(readme).toMatchObject({ mode: '100644', size: readme!.content.length, blobId: (await rawGit(repo, 'rev-parse', 'main:README.md')).trim() });
    expect((await readBlobAt(repo, 'v1.0', 'src/a.txt'))?.content.toString()).toBe('one\ntwo\n');
  });

  it('returns null for a missing file or a directory', async () => {
    expect(await readBlobAt(repo, 'main', 'missing.txt')).toBeNull();
    expect(await readBlobAt(repo, 'main', 'src')).toBeNull();
    expect(await readBlobAt(repo, 'nope', 'README.md')).toBeNull();
  });

  it('refuses traversal, absolute and malformed paths', async () => {
    for (const path of ['../README.md', 'src/../README.md', '/etc/passwd', 'src//a.txt', 'src/./a.txt', 'a\0b']) {
      await expect(readBlobAt(repo, 'main', path)).rejects.toBeInstanceOf(InvalidTreePathError);
    }
    await expect(readTree(repo, 'main', '../')).rejects.toBeInstanceOf(InvalidTreePathError);
    await expect(readBlobAt(repo, '--output=/tmp/x', 'README.md')).rejects.toBeInstanceOf(GitArgumentError);
  });

  it('reads many files in two git calls', async () => {
    const blobs = await readBlobsAt(repo, 'main', ['README.md', 'src/a.txt', 'docs/guide.md', 'missing']);
    expect([...blobs.keys()].sort()).toEqual(['README.md', 'docs/guide.md', 'src/a.txt']);
    expect(blobs.get('docs/guide.md')?.content.toString()).toBe('guide\n');
  });

  it('reads entries and blobs by id', async () => {
    const entry = await readEntry(repo, 'main', 'docs');
    expect(entry).toMatchObject({ type: 'tree', path: 'docs', size: null });
    const id = (await rawGit(repo, 'rev-parse', 'main:docs/guide.md')).trim();
    expect((await readBlob(repo, id))?.toString()).toBe('guide\n');
    expect(await readBlob(repo, entry!.id)).toBeNull(); // a tree is not a blob
    expect(await readBlob(repo, '1'.repeat(40))).toBeNull();
  });

  it('answers the trees of many revisions in the order asked, repeats included', async () => {
    const revisions = ['refs/heads/main', 'refs/heads/feature/x', 'refs/heads/main~1', 'refs/heads/main'];
    const expected = await Promise.all(revisions.map(async (revision) => (await rawGit(repo, 'rev-parse', `${revision}^{tree}`)).trim()));
    expect(await treesOf(repo, revisions)).toEqual(expected);
    expect(await treeOf(repo, 'refs/heads/feature/x')).toBe(expected[1]);
  });

  it('answers nothing for no revisions, and refuses a revision that names no commit', async () => {
    expect(await treesOf(repo, [])).toEqual([]);
    await expect(treesOf(repo, ['refs/heads/main', 'f'.repeat(40)])).rejects.toThrow(GitCommandError);
    await expect(treeOf(repo, 'refs/heads/no-such-branch')).rejects.toMatchObject({ code: 'bad-object' });
  });
});

describe('trees on weird-file-names', () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario('weird-file-names');
  });
  afterAll(() => scenario.cleanup());

  it('lists and reads names with spaces, tabs, newlines, quotes, dashes and pathspec magic', async () => {
    const names = (await readTree(scenario.repo, 'main'))?.map((entry) => entry.name);
    expect(names).toContain('new\nline.txt');
    expect(names).toContain('caf\ufffd.txt');
    for (const path of ['with space.txt', 'tab\there.txt', 'new\nline.txt', 'quote"d.txt', "single'q.txt", 'back\\slash.txt', 'unicodé 日本.txt', '-rf', ':(exclude)magic', 'dir with space/inner file.txt']) {
      expect((await readBlobAt(scenario.repo, 'main', path))?.content.toString(), path).toBe('v2\n');
    }
    expect((await readTree(scenario.repo, 'main', 'dir with space'))?.map((entry) => entry.path)).toEqual(['dir with space/inner file.txt']);
  });
});
