import { describe, expect, it, vi } from 'vitest';
import { createEmojiSupport, emojiFamily, FAMILY_REPRESENTATIVE, type EmojiFamily } from './emoji-support';

describe('emojiFamily', () => {
  it.each<[string, EmojiFamily]>([
    ['👍', 'basic'],
    ['❤️', 'basic'],
    ['🇫🇷', 'flag'],
    ['🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', 'subdivision-flag'],
    ['#️⃣', 'keycap'],
    ['👍🏿', 'skin-tone'],
    ['👩🏽‍💻', 'skin-tone'],
    ['👩‍💻', 'joined'],
    ['🏳️‍🌈', 'joined'],
  ])('%s is %s', (unicode, family) => {
    expect(emojiFamily(unicode)).toBe(family);
  });

  it('each representative is of its own family', () => {
    for (const [family, unicode] of Object.entries(FAMILY_REPRESENTATIVE)) expect(emojiFamily(unicode)).toBe(family);
  });
});

describe('createEmojiSupport', () => {
  it('measures each family once, on its representative, and remembers the answer', () => {
    const drawsInColour = vi.fn((unicode: string) => unicode !== FAMILY_REPRESENTATIVE.flag);
    const supported = createEmojiSupport(drawsInColour);
    expect(supported('👍')).toBe(true);
    expect(supported('🎉')).toBe(true);
    expect(supported('🇫🇷')).toBe(false);
    expect(supported('🇯🇵')).toBe(false);
    expect(drawsInColour.mock.calls).toEqual([[FAMILY_REPRESENTATIVE.basic], [FAMILY_REPRESENTATIVE.flag]]);
  });

  it('with no colour font at all, every emoji needs its image', () => {
    const supported = createEmojiSupport(() => false);
    expect(['👍', '🇫🇷', '1️⃣', '👋🏽', '👩‍💻'].map(supported)).toEqual([false, false, false, false, false]);
  });
});
