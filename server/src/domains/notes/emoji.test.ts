import { describe, expect, it } from 'vitest';
import { normalizeEmojiName } from './emoji.js';

describe('normalizeEmojiName', () => {
  it.each([
    ['thumbsup', 'thumbsup'],
    ['+1', 'thumbsup'],
    ['-1', 'thumbsdown'],
    ['tada', 'tada'],
    ['eyes', 'eyes'],
    ['rocket', 'rocket'],
  ])('%s → %s', (name, expected) => {
    expect(normalizeEmojiName(name)).toBe(expected);
  });

  it.each(['', 'not_an_emoji', ':smile:', 'smile; drop', '__proto__', 'constructor'])('refuses %j', (name) => {
    expect(normalizeEmojiName(name)).toBeNull();
  });
});
