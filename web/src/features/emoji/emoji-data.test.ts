import { gemoji } from 'gemoji';
// the server validates award names against markdown-it-emoji's list (server/src/domains/notes/emoji.ts)
import serverNames from 'markdown-it-emoji/lib/data/full.mjs';
import { describe, expect, it } from 'vitest';
import { buildEmojiData, CATEGORIES } from './emoji-data';

const data = buildEmojiData(gemoji);

describe('buildEmojiData', () => {
  it('offers only names the server accepts', () => {
    const refused = data.list.map((emoji) => emoji.name).filter((name) => !(name in serverNames));
    expect(refused).toEqual([]);
    expect(data.list.length).toBeGreaterThan(1800);
  });

  it('awards the canonical vote names and knows their aliases', () => {
    expect(data.byName.get('+1')?.name).toBe('thumbsup');
    expect(data.byName.get('thumbsdown')?.char).toBe('👎');
  });

  it('fills every GitLab category, smileys and people together', () => {
    for (const category of CATEGORIES) expect(data.list.some((emoji) => emoji.category === category.key)).toBe(true);
    expect(data.byName.get('smile')?.category).toBe('people');
    expect(data.byName.get('wave')?.category).toBe('people');
    expect(data.byName.get('pizza')?.category).toBe('food');
  });
});
