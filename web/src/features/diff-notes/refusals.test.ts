import { describe, expect, it } from 'vitest';
import { COMMENT_LINE_TOOLTIP, FILE_REPLACES_SYMLINK, LINE_NOT_SUPPORTED, lineRefusal, ONLY_MOVED, SYMLINK_REPLACES_FILE } from './refusals';

const text = { oldPath: 'a.txt', newPath: 'a.txt', aMode: '100644', bMode: '100644', renamedFile: false, added: 1, removed: 1, viewer: 'text' as const, deletedFile: false };

describe('lineRefusal', () => {
  it('lets an ordinary line take a comment', () => {
    expect(lineRefusal(text, [text])).toBeNull();
    expect(COMMENT_LINE_TOOLTIP).toBe('Add a comment to this line or drag for multiple lines');
  });

  it('refuses both halves of a file replaced by a symbolic link, with the text of each half', () => {
    const removedFile = { ...text, oldPath: 'link', newPath: 'link', bMode: '0', deletedFile: true };
    const addedLink = { ...text, oldPath: 'link', newPath: 'link', aMode: '0', bMode: '120000' };
    const files = [removedFile, addedLink];
    expect(lineRefusal(addedLink, files)).toBe(SYMLINK_REPLACES_FILE);
    expect(lineRefusal(removedFile, files)).toBe(FILE_REPLACES_SYMLINK);
    expect(SYMLINK_REPLACES_FILE).toBe('Commenting on symbolic links that replace or are replaced by files is not supported');
    expect(FILE_REPLACES_SYMLINK).toBe('Commenting on files that replace or are replaced by symbolic links is not supported');
  });

  it('refuses a file that turned into a link in one entry', () => {
    const changed = { ...text, aMode: '100644', bMode: '120000' };
    expect(lineRefusal(changed, [changed])).toBe(SYMLINK_REPLACES_FILE);
  });

  it('lets a link changed into another link take comments', () => {
    const link = { ...text, aMode: '120000', bMode: '120000' };
    expect(lineRefusal(link, [link, { ...text, oldPath: 'b.txt', newPath: 'b.txt' }])).toBeNull();
  });

  it('refuses a file that was only moved', () => {
    const moved = { ...text, oldPath: 'old.md', newPath: 'new.md', renamedFile: true, added: 0, removed: 0, viewer: 'renamed' as const };
    expect(lineRefusal(moved, [moved])).toBe(ONLY_MOVED);
    expect(lineRefusal({ ...moved, added: 2 }, [moved], { wholeFileOfRename: true })).toBe(ONLY_MOVED);
  });

  it('refuses lines the server has no codes for', () => {
    expect(lineRefusal({ ...text, viewer: 'too-large' }, [])).toBe(LINE_NOT_SUPPORTED);
    expect(lineRefusal(text, [text], { computed: true })).toBe(LINE_NOT_SUPPORTED);
  });
});
