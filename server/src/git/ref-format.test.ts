import { describe, expect, it } from 'vitest';
import { parseRefList } from './ref-format.js';

// `git for-each-ref REF_FORMAT refs/heads/ refs/tags/` on the linear-history scenario (git 2.39.5):
// two branches, a lightweight tag and an annotated tag.
const REFS_OUTPUT =
  "refs/heads/feature/x\x001f35ddcedd07898992fb5910ea601a710a0c32b1\x00commit\x00\x001f35ddcedd07898992fb5910ea601a710a0c32b1\x00b3d4c305914b24cb9592fc3fe799184610886480\x00Ada Lovelace\x00ada@example.com\x002023-11-14T22:20:20+00:00\x00Grace Hopper\x00grace@example.com\x002023-11-14T22:20:20+00:00\x00f1: feature work\n\x00\x00\x00\nrefs/heads/main\x00f13f2d89c8b48ae754a99d8f01e2a08c22cb7b08\x00commit\x00\x00f13f2d89c8b48ae754a99d8f01e2a08c22cb7b08\x00e65cca40f0d3f429cc6d0b6eb4bc441a020dbfc0\x00Ada Lovelace\x00ada@example.com\x002023-11-14T22:19:20+00:00\x00Grace Hopper\x00grace@example.com\x002023-11-14T22:19:20+00:00\x00c6: word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word end\n\x00\x00\x00\nrefs/tags/light\x00d929c328fbfd11243abeea35ab4b31c02d085ac6\x00commit\x00\x00d929c328fbfd11243abeea35ab4b31c02d085ac6\x00b3d4c305914b24cb9592fc3fe799184610886480\x00Ada Lovelace\x00ada@example.com\x002023-11-14T22:17:20+00:00\x00Grace Hopper\x00grace@example.com\x002023-11-14T22:17:20+00:00\x00c4: ünïcödé title\n\nBody line 1\n\tindented line\nLast line\n\x00\x00\x00\nrefs/tags/v1.0\x005de5b3d04bec8940d78c522fafdd3130638bb8e8\x00tag\x00commit\x001bc38ab264908454c2086ae2fdde45d9aece3d34\x00321723dffbf8e1ddd04dce4baeb060b8f0fc7e95\x00Ada Lovelace\x00ada@example.com\x002023-11-14T22:15:20+00:00\x00Grace Hopper\x00grace@example.com\x002023-11-14T22:15:20+00:00\x00c2: second line\n\x00Release 1.0\n\nNotes.\n\x002023-11-14T22:15:21+00:00\x00\n";

describe('parseRefList', () => {
  const refs = parseRefList(Buffer.from(REFS_OUTPUT, 'utf8'));

  it('lists every ref in order with its commit', () => {
    expect(refs.map((ref) => ref.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main', 'refs/tags/light', 'refs/tags/v1.0']);
    expect(refs[0]).toMatchObject({
      target: '1f35ddcedd07898992fb5910ea601a710a0c32b1',
      targetType: 'commit',
      tagMessage: null,
      taggedAt: null,
      commit: { id: '1f35ddcedd07898992fb5910ea601a710a0c32b1', title: 'f1: feature work', parent_ids: ['b3d4c305914b24cb9592fc3fe799184610886480'], author_email: 'ada@example.com' },
    });
  });

  it('keeps multi-line messages and truncates long titles as GitLab does', () => {
    expect(refs[2]!.commit!.message).toBe('c4: ünïcödé title\n\nBody line 1\n\tindented line\nLast line\n');
    expect(refs[1]!.commit!.title).toMatch(/^c6: (word ){14}word…$/);
  });

  it('peels annotated tags to their commit and keeps the tag message', () => {
    expect(refs[3]).toMatchObject({
      target: '5de5b3d04bec8940d78c522fafdd3130638bb8e8',
      targetType: 'tag',
      tagMessage: 'Release 1.0\n\nNotes.',
      taggedAt: new Date('2023-11-14T22:15:21Z'),
      commit: { id: '1bc38ab264908454c2086ae2fdde45d9aece3d34', title: 'c2: second line', committed_date: new Date('2023-11-14T22:15:20Z') },
    });
  });

  it('has no commit for a tag of a tree', () => {
    const treeTag = `refs/tags/t\x00${'a'.repeat(40)}\x00tag\x00tree\x00${'b'.repeat(40)}${'\x00'.repeat(9)}msg\n\x002020-01-01T00:00:00+00:00\x00\n`;
    expect(parseRefList(treeTag)).toEqual([{ ref: 'refs/tags/t', target: 'a'.repeat(40), targetType: 'tag', commit: null, tagMessage: 'msg', taggedAt: new Date('2020-01-01T00:00:00Z') }]);
  });

  it('returns nothing for no refs', () => {
    expect(parseRefList('')).toEqual([]);
  });
});
