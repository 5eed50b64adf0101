import { describe, expect, it } from 'vitest';
import type { FilePatch, RawDiffRecord } from './diff-format.js';
import { buildFileDiffs, DEFAULT_DIFF_LIMITS } from './file-diffs.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

function file(record: Partial<RawDiffRecord>, patches: string[], added: number | null = 1, removed: number | null = 1): FilePatch {
  return {
    record: { oldMode: '100644', newMode: '100644', oldId: A, newId: B, status: 'M', score: null, oldPath: 'f.txt', newPath: 'f.txt', ...record },
    added,
    removed,
    patches,
  };
}

const MODIFIED = 'diff --git a/f.txt b/f.txt\nindex a..b 100644\n--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-old\n+new\n';

describe('buildFileDiffs', () => {
  it('shapes a modification as GitLab does', () => {
    expect(buildFileDiffs([file({}, [MODIFIED])]).diffs).toEqual([
      {
        old_path: 'f.txt',
        new_path: 'f.txt',
        a_mode: '100644',
        b_mode: '100644',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
        generated_file: false,
        diff: '@@ -1 +1 @@\n-old\n+new\n',
        too_large: false,
        collapsed: false,
        binary: false,
        old_id: A,
        new_id: B,
        added_lines: 1,
        removed_lines: 1,
      },
    ]);
  });

  it.each([
    ['added', { status: 'A', oldMode: '000000', oldId: ZERO }, { new_file: true, a_mode: '0', b_mode: '100644', old_id: '' }],
    ['deleted', { status: 'D', newMode: '000000', newId: ZERO }, { deleted_file: true, a_mode: '100644', b_mode: '0', new_id: '' }],
    ['renamed', { status: 'R', score: 90, oldPath: 'a.txt', newPath: 'b.txt' }, { renamed_file: true, old_path: 'a.txt', new_path: 'b.txt' }],
    ['mode change', { newMode: '100755' }, { a_mode: '100644', b_mode: '100755' }],
    ['submodule', { oldMode: '160000', newMode: '160000' }, { a_mode: '160000', b_mode: '160000' }],
  ] as const)('%s', (_name, record, expected) => {
    expect(buildFileDiffs([file(record, [MODIFIED])]).diffs[0]).toMatchObject(expected);
  });

  it('splits a type change into a deletion and an addition', () => {
    const { diffs } = buildFileDiffs([file({ status: 'T', newMode: '120000' }, ['diff --git a/f.txt b/f.txt\ndeleted file mode 100644\n@@ -1 +0,0 @@\n-plain\n', 'diff --git a/f.txt b/f.txt\nnew file mode 120000\n@@ -0,0 +1 @@\n+target\n'])]);
    expect(diffs.map((d) => [d.deleted_file, d.new_file, d.a_mode, d.b_mode, d.diff, d.added_lines, d.removed_lines])).toEqual([
      [true, false, '100644', '0', '@@ -1 +0,0 @@\n-plain\n', 0, 1],
      [false, true, '0', '120000', '@@ -0,0 +1 @@\n+target\n', 1, 0],
    ]);
  });

  it('marks binary files', () => {
    const binary = 'diff --git a/f.txt b/f.txt\nindex a..b 100644\nBinary files a/f.txt and b/f.txt differ\n';
    expect(buildFileDiffs([file({}, [binary], null, null)]).diffs[0]).toMatchObject({ binary: true, diff: 'Binary files a/f.txt and b/f.txt differ\n', added_lines: 0, removed_lines: 0 });
  });

  it('empties a file whose patch is too large, without overflowing the whole diff', () => {
    const huge = `${MODIFIED}${'+x\n'.repeat(80_000)}`;
    const result = buildFileDiffs([file({}, [huge], 80_001, 1), file({ oldPath: 'g', newPath: 'g' }, [MODIFIED])]);
    expect(result.diffs[0]).toMatchObject({ too_large: true, collapsed: true, diff: '' });
    expect(result.diffs[1]).toMatchObject({ too_large: false, collapsed: false });
    expect(result.overflow).toBe(false);
  });

  it('leaves out files beyond the file limit and reports overflow', () => {
    const files = Array.from({ length: 5 }, (_, i) => file({ oldPath: `f${i}`, newPath: `f${i}` }, [MODIFIED]));
    const result = buildFileDiffs(files, { ...DEFAULT_DIFF_LIMITS, maxFiles: 3 });
    expect(result.diffs.map((d) => d.new_path)).toEqual(['f0', 'f1', 'f2']);
    expect(result.overflow).toBe(true);
  });

  it('collapses files once the line limit is reached and reports overflow', () => {
    const files = Array.from({ length: 4 }, (_, i) => file({ oldPath: `f${i}`, newPath: `f${i}` }, [MODIFIED]));
    const result = buildFileDiffs(files, { ...DEFAULT_DIFF_LIMITS, maxLines: 4 });
    expect(result.diffs.map((d) => d.collapsed)).toEqual([false, false, true, true]);
    expect(result.diffs[2]!.diff).toBe('');
    expect(result.overflow).toBe(true);
  });
});
