import { describe, expect, it } from 'vitest';
import { commitTitle, parseLogOutput } from './commit-format.js';

// `git log -z LOG_FORMAT --max-count=2 main~1` on the linear-history scenario (git 2.39.5).
const LOG_OUTPUT =
  "e65cca40f0d3f429cc6d0b6eb4bc441a020dbfc0\x00d929c328fbfd11243abeea35ab4b31c02d085ac6\x00Ada Lovelace\x00ada@example.com\x002023-11-14T22:18:20+00:00\x00Grace Hopper\x00grace@example.com\x002023-11-14T22:18:20+00:00\x00c5: third line\n\x00d929c328fbfd11243abeea35ab4b31c02d085ac6\x00b3d4c305914b24cb9592fc3fe799184610886480\x00Ada Lovelace\x00ada@example.com\x002023-11-14T22:17:20+00:00\x00Grace Hopper\x00grace@example.com\x002023-11-14T22:17:20+00:00\x00c4: ünïcödé title\n\nBody line 1\n\tindented line\nLast line\n\x00";

describe('parseLogOutput', () => {
  it('parses commits with multi-line unicode messages exactly', () => {
    const [c5, c4] = parseLogOutput(Buffer.from(LOG_OUTPUT, 'utf8'));
    expect(c5).toEqual({
      id: 'e65cca40f0d3f429cc6d0b6eb4bc441a020dbfc0',
      short_id: 'e65cca40',
      title: 'c5: third line',
      message: 'c5: third line\n',
      author_name: 'Ada Lovelace',
      author_email: 'ada@example.com',
      authored_date: new Date('2023-11-14T22:18:20Z'),
      committer_name: 'Grace Hopper',
      committer_email: 'grace@example.com',
      committed_date: new Date('2023-11-14T22:18:20Z'),
      created_at: new Date('2023-11-14T22:18:20Z'),
      parent_ids: ['d929c328fbfd11243abeea35ab4b31c02d085ac6'],
    });
    expect(c4!.title).toBe('c4: ünïcödé title');
    expect(c4!.message).toBe('c4: ünïcödé title\n\nBody line 1\n\tindented line\nLast line\n');
  });

  it('returns nothing for empty output', () => {
    expect(parseLogOutput(Buffer.alloc(0))).toEqual([]);
  });

  it("reads root and merge commits' parents", () => {
    const record = (parents: string) => ['a'.repeat(40), parents, 'n', 'e', '2020-01-01T00:00:00+00:00', 'n', 'e', '2020-01-01T00:00:00+00:00', 'm\n', ''].join('\x00');
    expect(parseLogOutput(record(''))[0]!.parent_ids).toEqual([]);
    expect(parseLogOutput(record(`${'b'.repeat(40)} ${'c'.repeat(40)}`))[0]!.parent_ids).toEqual(['b'.repeat(40), 'c'.repeat(40)]);
  });
});

describe('commitTitle (GitLab Commit#title)', () => {
  it.each([
    ['Fix bug\n\nDetails', 'Fix bug'],
    ['Windows line\r\nnext', 'Windows line'],
    ['', 'No commit message'],
    ['  \n', 'No commit message'],
    ['x'.repeat(99), 'x'.repeat(99)],
    ['x'.repeat(100), `${'x'.repeat(80)}…`],
    [`${'word '.repeat(30)}end`, `${'word '.repeat(15)}word…`],
    ['ü'.repeat(99), 'ü'.repeat(99)],
  ])('%j → %j', (message, title) => {
    expect(commitTitle(message)).toBe(title);
  });
});
