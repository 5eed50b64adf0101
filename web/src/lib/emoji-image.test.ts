import { describe, expect, it } from 'vitest';
import { emojiImageFile, emojiImageUrl, isEmojiText } from './emoji-image';

describe('emojiImageFile (Twemoji file names)', () => {
  it.each([
    ['👍', '1f44d.svg'],
    ['🎉', '1f389.svg'],
    // the presentation selector is dropped from a sequence without a joiner…
    ['❤️', '2764.svg'],
    ['1️⃣', '31-20e3.svg'],
    ['🇫🇷', '1f1eb-1f1f7.svg'],
    ['👋🏽', '1f44b-1f3fd.svg'],
    // …and kept in one with a joiner
    ['👩‍💻', '1f469-200d-1f4bb.svg'],
    ['🏳️‍🌈', '1f3f3-fe0f-200d-1f308.svg'],
  ])('%s → %s', (unicode, file) => {
    expect(emojiImageFile(unicode)).toBe(file);
  });

  it('serves them from our own origin', () => {
    expect(emojiImageUrl('👍')).toBe('/emoji/1f44d.svg');
  });
});

describe('isEmojiText', () => {
  it.each([
    ['👍', true],
    ['❤️', true],
    ['🇫🇷', true],
    ['1️⃣', true],
    ['👩🏽‍💻', true],
    ['', false],
    ['hello', false],
    ['a', false],
    ['👍'.repeat(20), false],
  ])('%j → %s', (text, emoji) => {
    expect(isEmojiText(text)).toBe(emoji);
  });
});
