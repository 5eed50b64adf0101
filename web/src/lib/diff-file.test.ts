import { describe, expect, it } from 'vitest';
import { DIFF_COLLAPSE_PATCH_BYTES, diffTotals, displayPath, toDiffFile } from './diff-file';
import type { CommitDiff } from './gitlab-types';

const entry = (overrides: Partial<CommitDiff> = {}): CommitDiff => ({
  old_path: 'src/app.ts',
  new_path: 'src/app.ts',
  a_mode: '100644',
  b_mode: '100644',
  diff: '@@ -1 +1 @@\n-a\n+b\n',
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  too_large: false,
  collapsed: false,
  ...overrides,
});

describe('toDiffFile', () => {
  it.each([
    ['a text change', {}, 'text'],
    ['a too large patch', { too_large: true, collapsed: true, diff: '' }, 'too-large'],
    ['a submodule', { a_mode: '160000', b_mode: '160000', diff: '@@ -1 +1 @@\n-Subproject commit a\n+Subproject commit b\n' }, 'submodule'],
    ['a binary', { new_path: 'data.bin', old_path: 'data.bin', diff: 'Binary files a/data.bin and b/data.bin differ\n' }, 'binary'],
    ['a replaced image', { new_path: 'logo.png', old_path: 'logo.png', diff: 'Binary files a/logo.png and b/logo.png differ\n' }, 'image'],
    ['an image the server collapsed', { new_path: 'logo.png', old_path: 'logo.png', collapsed: true, diff: '' }, 'image'],
    ['a collapsed text file', { collapsed: true, diff: '' }, 'collapsed'],
    ['a pure rename', { old_path: 'a.txt', new_path: 'b.txt', renamed_file: true, diff: '' }, 'renamed'],
    ['a mode change', { b_mode: '100755', diff: '' }, 'mode-changed'],
    ['a new empty file', { new_file: true, a_mode: '0', diff: '' }, 'empty'],
  ] as const)('shows %s with the %s viewer', (_name, overrides, viewer) => {
    expect(toDiffFile(entry(overrides), 0).viewer).toBe(viewer);
  });

  it('counts lines from the patch unless the server sent counts', () => {
    expect(toDiffFile(entry(), 0)).toMatchObject({ added: 1, removed: 1 });
    expect(toDiffFile(entry({ diff: '', collapsed: true, added_lines: 7, removed_lines: 2 }), 0)).toMatchObject({ added: 7, removed: 2, countsKnown: true });
    expect(toDiffFile(entry({ diff: '', collapsed: true, too_large: true }), 0)).toMatchObject({ added: 0, removed: 0, countsKnown: false });
  });

  it('counts no lines for binary files', () => {
    expect(toDiffFile(entry({ diff: 'Binary files a/x.bin and b/x.bin differ\n', new_path: 'x.bin' }), 0).countsKnown).toBe(false);
  });

  it('flags mode changes only for files on both sides', () => {
    expect(toDiffFile(entry({ b_mode: '100755' }), 0)).toMatchObject({ modeChanged: true, viewer: 'text' });
    expect(toDiffFile(entry({ new_file: true, a_mode: '0' }), 0).modeChanged).toBe(false);
  });

  it('recognises Git LFS pointers and symbolic links', () => {
    const lfs = '@@ -0,0 +1,3 @@\n+version https://git-lfs.github.com/spec/v1\n+oid sha256:abc\n+size 12\n';
    expect(toDiffFile(entry({ diff: lfs, new_file: true }), 0).lfs).toBe(true);
    expect(toDiffFile(entry(), 0).lfs).toBe(false);
    expect(toDiffFile(entry({ a_mode: '120000', b_mode: '120000' }), 0).symlink).toBe(true);
  });

  it('starts large patches and server-collapsed files collapsed', () => {
    const big = `@@ -1 +1,${DIFF_COLLAPSE_PATCH_BYTES} @@\n${'+x\n'.repeat(DIFF_COLLAPSE_PATCH_BYTES / 2)}`;
    expect(toDiffFile(entry({ diff: big }), 0)).toMatchObject({ viewer: 'text', startsCollapsed: true });
    expect(toDiffFile(entry({ collapsed: true, diff: '' }), 0).startsCollapsed).toBe(true);
    expect(toDiffFile(entry(), 0).startsCollapsed).toBe(false);
  });

  it('gives each file a unique id, also for the halves of a type change', () => {
    expect(toDiffFile(entry(), 3).id).not.toBe(toDiffFile(entry(), 4).id);
  });

  it('names deleted files by their old path', () => {
    const file = toDiffFile(entry({ deleted_file: true, new_path: 'gone.txt', old_path: 'gone.txt', b_mode: '0' }), 0);
    expect(file.status).toBe('deleted');
    expect(displayPath(file)).toBe('gone.txt');
  });
});

describe('diffTotals', () => {
  it('sums files and lines', () => {
    expect(diffTotals([{ added: 2, removed: 1 }, { added: 3, removed: 0 }])).toEqual({ files: 2, added: 5, removed: 1 });
  });
});
