import { describe, expect, it } from 'vitest';
import { parseCatFileBatch, parseLsTree } from './tree-format.js';

// `git ls-tree -z -l main` on the weird-file-names scenario (git 2.39.5), as bytes.
const LS_TREE = Buffer.from(
  '100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\t-rf\x00100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\t:(exclude)magic\x00100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\tback\\slash.txt\x00100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\tcaf\xe9.txt\x00040000 tree da0fdf816af67879fcef2b9e9034410f26be4206       -\tdir with space\x00100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\tnew\nline.txt\x00100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\tquote"d.txt\x00100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\tsingle\'q.txt\x00100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\ttab\there.txt\x00100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\tunicod\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.txt\x00100644 blob 8c1384d825dbbe41309b7dc18ee7991a9085c46e       3\twith space.txt\x00',
  'latin1',
);
const BLOB = '8c1384d825dbbe41309b7dc18ee7991a9085c46e';

describe('parseLsTree', () => {
  const entries = parseLsTree(LS_TREE);

  it('reads mode, type, id, size and exact names', () => {
    expect(entries.map((entry) => entry.name)).toEqual([
      '-rf',
      ':(exclude)magic',
      'back\\slash.txt',
      'caf\ufffd.txt', // invalid UTF-8 (Latin-1 é) decodes to U+FFFD, the same everywhere
      'dir with space',
      'new\nline.txt',
      'quote"d.txt',
      "single'q.txt",
      'tab\there.txt',
      'unicodé 日本.txt',
      'with space.txt',
    ]);
    expect(entries[0]).toEqual({ id: BLOB, name: '-rf', type: 'blob', path: '-rf', mode: '100644', size: 3 });
    expect(entries[4]).toEqual({ id: 'da0fdf816af67879fcef2b9e9034410f26be4206', name: 'dir with space', type: 'tree', path: 'dir with space', mode: '040000', size: null });
  });

  it('prefixes the listed directory and names entries by their last segment', () => {
    const nested = parseLsTree(Buffer.from(`100644 blob ${BLOB}       3\tinner file.txt\x00160000 commit ${'1'.repeat(40)}       -\tsub\x00`), 'dir with space');
    expect(nested).toEqual([
      { id: BLOB, name: 'inner file.txt', type: 'blob', path: 'dir with space/inner file.txt', mode: '100644', size: 3 },
      { id: '1'.repeat(40), name: 'sub', type: 'commit', path: 'dir with space/sub', mode: '160000', size: null },
    ]);
  });

  it('names recursive entries by their last segment', () => {
    const [entry] = parseLsTree(Buffer.from(`100644 blob ${BLOB}       3\ta/b/c.txt\x00`));
    expect(entry).toMatchObject({ name: 'c.txt', path: 'a/b/c.txt' });
  });

  it('returns nothing for an empty tree', () => {
    expect(parseLsTree(Buffer.alloc(0))).toEqual([]);
  });
});

describe('parseCatFileBatch', () => {
  it('reads contents (including newlines and NUL) and missing objects in input order', () => {
    // `git cat-file --batch` with a blob, a missing id and a blob holding binary bytes.
    const output = Buffer.concat([
      Buffer.from(`ce013625030ba8dba906f756967f9e9ca394464a blob 6\nhello\n\n`),
      Buffer.from(`${'1'.repeat(40)} missing\n`),
      Buffer.from(`2ee55da7348a42d464300b58367eac68e991f889 blob 8\n`),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a, 0x02, 0x03]),
      Buffer.from('\n'),
    ]);
    const [hello, missing, image] = parseCatFileBatch(output);
    expect(hello).toMatchObject({ id: 'ce013625030ba8dba906f756967f9e9ca394464a', type: 'blob', size: 6 });
    expect(hello!.content.toString()).toBe('hello\n');
    expect(missing).toBeNull();
    expect([...image!.content]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a, 0x02, 0x03]);
  });

  it('refuses truncated output', () => {
    expect(() => parseCatFileBatch(Buffer.from(`${'a'.repeat(40)} blob 10\nshort`))).toThrow(/truncated/);
  });
});
