import { gemoji } from 'gemoji';
import { describe, expect, it } from 'vitest';
import { buildEmojiData } from './emoji-data';
import { searchEmoji } from './search';

const data = buildEmojiData(gemoji);
const names = (text: string) => searchEmoji(data.list, text)?.map((emoji) => emoji.name);

describe('searchEmoji', () => {
  it('is null for an empty search (the categories show)', () => {
    expect(searchEmoji(data.list, '  ')).toBeNull();
    expect(searchEmoji(data.list, '::')).toBeNull();
  });

  it('finds the exact name first, then names starting with the text', () => {
    const found = names('tada')!;
    expect(found[0]).toBe('tada');
    const smile = names('smile')!;
    expect(smile[0]).toBe('smile');
    expect(smile.slice(1, 4).every((name) => name.startsWith('smile'))).toBe(true);
  });

  it('finds by alias, tag and description, and ignores colons and case', () => {
    expect(names(':+1:')![0]).toBe('thumbsup');
    expect(names('Thumbs')).toContain('thumbsdown');
    expect(names('party')).toContain('tada');
    expect(names('grinning face')).toContain('grinning');
  });

  it('finds nothing for nonsense (the picker says No emoji found.)', () => {
    expect(names('qwxzv')).toEqual([]);
  });
});
