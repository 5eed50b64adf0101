import { describe, expect, it } from 'vitest';
import { parseCommitObject, parseRawDiff } from './pushed-commits.js';

describe('parseCommitObject', () => {
  it('reads the emails, the message and whether a signature is there', () => {
    const raw = Buffer.from(
      'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A U <a@example.com> 1 +0000\ncommitter C O <c@example.com> 1 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n x\n -----END PGP SIGNATURE-----\n\nSubject\n\nBody\n',
    );
    expect(parseCommitObject('f'.repeat(40), raw)).toEqual({ sha: 'f'.repeat(40), message: 'Subject\n\nBody\n', authorEmail: 'a@example.com', committerEmail: 'c@example.com', signed: true });
  });
  it('an unsigned commit', () => {
    expect(parseCommitObject('a'.repeat(40), Buffer.from('tree t\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\nm')).signed).toBe(false);
  });
});

describe('parseRawDiff', () => {
  it('added, modified, deleted and renamed files', () => {
    const z = (...parts: string[]) => Buffer.from(`${parts.join('\0')}\0`);
    const b = (c: string) => c.repeat(40);
    const raw = z(
      `:000000 100644 ${b('0')} ${b('1')} A`, 'new.txt',
      `:100644 100644 ${b('1')} ${b('2')} M`, 'changed.txt',
      `:100644 000000 ${b('2')} ${b('0')} D`, 'gone.txt',
      `:100644 100644 ${b('3')} ${b('3')} R100`, 'old name.txt', 'new name.txt',
    );
    expect(parseRawDiff(raw)).toEqual([
      { path: 'new.txt', newFile: true, deleted: false, blob: b('1') },
      { path: 'changed.txt', newFile: false, deleted: false, blob: b('2') },
      { path: 'gone.txt', newFile: false, deleted: true, blob: b('0') },
      { path: 'new name.txt', newFile: true, deleted: false, blob: b('3') },
    ]);
  });
});
