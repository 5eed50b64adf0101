import { describe, expect, it } from 'vitest';
import { hunkText, parseDiffTree, splitPatch } from './diff-format.js';

// `git -c core.quotePath=false diff-tree -r -M --raw --numstat -z --no-abbrev --full-index
//  --no-ext-diff --no-textconv --no-color -p --src-prefix=a/ --dst-prefix=b/ main~1 main`
// on two scenarios (git 2.39.5), as bytes.
const RENAMED_BINARY_DIFF = Buffer.from(
  ':000000 100644 0000000000000000000000000000000000000000 ce013625030ba8dba906f756967f9e9ca394464a A\x00added.txt\x00:100644 000000 b023018cabc396e7692c70bbf5784a93d3f738ab 0000000000000000000000000000000000000000 D\x00gone.txt\x00:100644 100644 2ee55da7348a42d464300b58367eac68e991f889 393118140a847b6aa768da1295639b7687d0274f M\x00image.png\x00:100644 120000 b9bca019c83a65e6d717d0b6da86215f45dde1b3 c0528fd6cc988c0a40ce0be11bc192fc8dc5346e T\x00link-me\x00:100644 100644 0ff3bbb9c8bba2291654cd64067fa417ff54c508 948ab7184287e5865fc74b418064e7714ac6b2df R085\x00old.txt\x00new.txt\x00:120000 120000 09dc8fa52bc3ec4f2786cce31d9b9ef642d7b75c c0528fd6cc988c0a40ce0be11bc192fc8dc5346e M\x00pointer\x00:100644 100755 4163036efa65bd4a469e752267498f01ea36a55c 4163036efa65bd4a469e752267498f01ea36a55c M\x00script.sh\x00:160000 160000 1111111111111111111111111111111111111111 2222222222222222222222222222222222222222 M\x00vendor/lib\x001\t0\tadded.txt\x000\t1\tgone.txt\x00-\t-\timage.png\x001\t1\tlink-me\x001\t1\t\x00old.txt\x00new.txt\x001\t1\tpointer\x000\t0\tscript.sh\x001\t1\tvendor/lib\x00\x00diff --git a/added.txt b/added.txt\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..ce013625030ba8dba906f756967f9e9ca394464a\n--- /dev/null\n+++ b/added.txt\n@@ -0,0 +1 @@\n+hello\ndiff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\nindex b023018cabc396e7692c70bbf5784a93d3f738ab..0000000000000000000000000000000000000000\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\ndiff --git a/image.png b/image.png\nindex 2ee55da7348a42d464300b58367eac68e991f889..393118140a847b6aa768da1295639b7687d0274f 100644\nBinary files a/image.png and b/image.png differ\ndiff --git a/link-me b/link-me\ndeleted file mode 100644\nindex b9bca019c83a65e6d717d0b6da86215f45dde1b3..0000000000000000000000000000000000000000\n--- a/link-me\n+++ /dev/null\n@@ -1 +0,0 @@\n-plain\ndiff --git a/link-me b/link-me\nnew file mode 120000\nindex 0000000000000000000000000000000000000000..c0528fd6cc988c0a40ce0be11bc192fc8dc5346e\n--- /dev/null\n+++ b/link-me\n@@ -0,0 +1 @@\n+new.txt\n\\ No newline at end of file\ndiff --git a/old.txt b/new.txt\nsimilarity index 85%\nrename from old.txt\nrename to new.txt\nindex 0ff3bbb9c8bba2291654cd64067fa417ff54c508..948ab7184287e5865fc74b418064e7714ac6b2df 100644\n--- a/old.txt\n+++ b/new.txt\n@@ -17,4 +17,4 @@\n 17\n 18\n 19\n-20\n+twenty!\ndiff --git a/pointer b/pointer\nindex 09dc8fa52bc3ec4f2786cce31d9b9ef642d7b75c..c0528fd6cc988c0a40ce0be11bc192fc8dc5346e 120000\n--- a/pointer\n+++ b/pointer\n@@ -1 +1 @@\n-old.txt\n\\ No newline at end of file\n+new.txt\n\\ No newline at end of file\ndiff --git a/script.sh b/script.sh\nold mode 100644\nnew mode 100755\ndiff --git a/vendor/lib b/vendor/lib\nindex 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 160000\n--- a/vendor/lib\n+++ b/vendor/lib\n@@ -1 +1 @@\n-Subproject commit 1111111111111111111111111111111111111111\n+Subproject commit 2222222222222222222222222222222222222222\n',
  'latin1',
);
const WEIRD_NAMES_DIFF = Buffer.from(
  ':100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00-rf\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00:(exclude)magic\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00back\\slash.txt\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00caf\xe9.txt\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00dir with space/inner file.txt\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00new\nline.txt\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00quote"d.txt\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00single\'q.txt\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00tab\there.txt\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00unicod\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.txt\x00:100644 100644 626799f0f85326a8c1fc522db584e86cdfccd51f 8c1384d825dbbe41309b7dc18ee7991a9085c46e M\x00with space.txt\x001\t1\t-rf\x001\t1\t:(exclude)magic\x001\t1\tback\\slash.txt\x001\t1\tcaf\xe9.txt\x001\t1\tdir with space/inner file.txt\x001\t1\tnew\nline.txt\x001\t1\tquote"d.txt\x001\t1\tsingle\'q.txt\x001\t1\ttab\there.txt\x001\t1\tunicod\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.txt\x001\t1\twith space.txt\x00\x00diff --git a/-rf b/-rf\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- a/-rf\n+++ b/-rf\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git a/:(exclude)magic b/:(exclude)magic\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- a/:(exclude)magic\n+++ b/:(exclude)magic\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git "a/back\\\\slash.txt" "b/back\\\\slash.txt"\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- "a/back\\\\slash.txt"\n+++ "b/back\\\\slash.txt"\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git a/caf\xe9.txt b/caf\xe9.txt\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- a/caf\xe9.txt\n+++ b/caf\xe9.txt\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git a/dir with space/inner file.txt b/dir with space/inner file.txt\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- a/dir with space/inner file.txt\t\n+++ b/dir with space/inner file.txt\t\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git "a/new\\nline.txt" "b/new\\nline.txt"\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- "a/new\\nline.txt"\n+++ "b/new\\nline.txt"\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git "a/quote\\"d.txt" "b/quote\\"d.txt"\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- "a/quote\\"d.txt"\n+++ "b/quote\\"d.txt"\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git a/single\'q.txt b/single\'q.txt\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- a/single\'q.txt\n+++ b/single\'q.txt\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git "a/tab\\there.txt" "b/tab\\there.txt"\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- "a/tab\\there.txt"\n+++ "b/tab\\there.txt"\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git a/unicod\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.txt b/unicod\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.txt\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- a/unicod\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.txt\t\n+++ b/unicod\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.txt\t\n@@ -1 +1 @@\n-v1\n+v2\ndiff --git a/with space.txt b/with space.txt\nindex 626799f0f85326a8c1fc522db584e86cdfccd51f..8c1384d825dbbe41309b7dc18ee7991a9085c46e 100644\n--- a/with space.txt\t\n+++ b/with space.txt\t\n@@ -1 +1 @@\n-v1\n+v2\n',
  'latin1',
);

describe('parseDiffTree on renamed-binary', () => {
  const files = parseDiffTree(RENAMED_BINARY_DIFF);

  it('pairs raw records with numstat and patches', () => {
    expect(files.map((file) => [file.record.status, file.record.oldPath, file.record.newPath, file.added, file.removed, file.patches.length])).toEqual([
      ['A', 'added.txt', 'added.txt', 1, 0, 1],
      ['D', 'gone.txt', 'gone.txt', 0, 1, 1],
      ['M', 'image.png', 'image.png', null, null, 1],
      ['T', 'link-me', 'link-me', 1, 1, 2],
      ['R', 'old.txt', 'new.txt', 1, 1, 1],
      ['M', 'pointer', 'pointer', 1, 1, 1],
      ['M', 'script.sh', 'script.sh', 0, 0, 1],
      ['M', 'vendor/lib', 'vendor/lib', 1, 1, 1],
    ]);
  });

  it('keeps modes, ids and rename scores', () => {
    expect(files[4]!.record).toEqual({
      oldMode: '100644',
      newMode: '100644',
      oldId: '0ff3bbb9c8bba2291654cd64067fa417ff54c508',
      newId: '948ab7184287e5865fc74b418064e7714ac6b2df',
      status: 'R',
      score: 85,
      oldPath: 'old.txt',
      newPath: 'new.txt',
    });
    expect(files[6]!.record).toMatchObject({ oldMode: '100644', newMode: '100755' });
    expect(files[7]!.record).toMatchObject({ oldMode: '160000', newMode: '160000', newId: '2'.repeat(40) });
  });

  it('gives each record its own patch', () => {
    expect(files[3]!.patches[0]).toMatch(/^diff --git a\/link-me b\/link-me\ndeleted file mode 100644\n/);
    expect(files[3]!.patches[1]).toMatch(/^diff --git a\/link-me b\/link-me\nnew file mode 120000\n/);
    expect(hunkText(files[4]!.patches[0]!).text).toBe('@@ -17,4 +17,4 @@\n 17\n 18\n 19\n-20\n+twenty!\n');
    expect(hunkText(files[7]!.patches[0]!).text).toBe(
      `@@ -1 +1 @@\n-Subproject commit ${'1'.repeat(40)}\n+Subproject commit ${'2'.repeat(40)}\n`,
    );
  });
});

describe('parseDiffTree on weird-file-names', () => {
  const files = parseDiffTree(WEIRD_NAMES_DIFF);

  it('takes exact paths from the raw records, whatever the patch header quoting', () => {
    expect(files.map((file) => file.record.newPath)).toEqual([
      '-rf',
      ':(exclude)magic',
      'back\\slash.txt',
      'caf\ufffd.txt',
      'dir with space/inner file.txt',
      'new\nline.txt',
      'quote"d.txt',
      "single'q.txt",
      'tab\there.txt',
      'unicodé 日本.txt',
      'with space.txt',
    ]);
    for (const file of files) {
      expect(file.patches).toHaveLength(1);
      expect(hunkText(file.patches[0]!).text).toBe('@@ -1 +1 @@\n-v1\n+v2\n');
    }
  });
});

describe('hunkText', () => {
  it('is empty for a mode change or a pure rename', () => {
    expect(hunkText('diff --git a/x b/x\nold mode 100644\nnew mode 100755\n')).toEqual({ text: '', binary: false });
    expect(hunkText('diff --git a/a b/b\nsimilarity index 100%\nrename from a\nrename to b\n')).toEqual({ text: '', binary: false });
  });

  it('keeps the "Binary files" line for binary files', () => {
    expect(hunkText('diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n')).toEqual({ text: 'Binary files a/i.png and b/i.png differ\n', binary: true });
  });

  it('does not mistake a file named like a hunk header for one', () => {
    const patch = 'diff --git a/@@ x b/@@ x\nindex 1..2 100644\n--- a/@@ x\n+++ b/@@ x\n@@ -1 +1 @@\n-a\n+b\n';
    expect(hunkText(patch).text).toBe('@@ -1 +1 @@\n-a\n+b\n');
  });
});

describe('splitPatch', () => {
  it('splits only at line starts', () => {
    const patch = 'diff --git a/x b/x\n@@ -1 +1 @@\n-diff --git a/y b/y\n+z\ndiff --git a/w b/w\n@@ -1 +1 @@\n-1\n+2\n';
    expect(splitPatch(patch)).toHaveLength(2);
  });

  it('returns nothing for no patch', () => {
    expect(parseDiffTree(Buffer.alloc(0))).toEqual([]);
  });
});
