/**
 * The emoji the picker offers and the award buttons draw: gemoji's list (GitHub's names, the
 * names GitLab and markdown-it-emoji use too), grouped into GitLab's picker categories. The
 * data is a lazily loaded chunk (`loadEmojiData`), fetched once when an award list or the
 * picker first needs it.
 */
import type { Gemoji } from 'gemoji';

/** GitLab's picker categories (app/assets/javascripts/emoji/constants.js), in its order. */
export const CATEGORIES = [
  { key: 'people', title: 'Smileys & people', glyph: '😀', glyphName: 'grinning' },
  { key: 'nature', title: 'Nature', glyph: '🐻', glyphName: 'bear' },
  { key: 'food', title: 'Food', glyph: '🍔', glyphName: 'hamburger' },
  { key: 'activity', title: 'Activity', glyph: '⚽', glyphName: 'soccer' },
  { key: 'travel', title: 'Travel', glyph: '🚗', glyphName: 'car' },
  { key: 'objects', title: 'Objects', glyph: '💡', glyphName: 'bulb' },
  { key: 'symbols', title: 'Symbols', glyph: '❤️', glyphName: 'heart' },
  { key: 'flags', title: 'Flags', glyph: '🏁', glyphName: 'checkered_flag' },
] as const;

export type CategoryKey = (typeof CATEGORIES)[number]['key'];

/** Unicode's groups (gemoji's `category`) → GitLab's categories. */
const CATEGORY_OF: Readonly<Record<string, CategoryKey>> = {
  'Smileys & Emotion': 'people',
  'People & Body': 'people',
  'Animals & Nature': 'nature',
  'Food & Drink': 'food',
  Activities: 'activity',
  'Travel & Places': 'travel',
  Objects: 'objects',
  Symbols: 'symbols',
  Flags: 'flags',
};

/** Names the server stores under another (GitLab's normalize_emoji_name): award the canonical one. */
const ALIASES: ReadonlySet<string> = new Set(['+1', '-1']);
/**
 * The CJK ideograph buttons (`u6708` …) are gemoji's but not markdown-it-emoji's, whose list the
 * server validates award names against: the picker leaves them out (emoji-data.test.ts checks
 * that every other name is the server's).
 */
const NOT_AWARDABLE = /^u[0-9a-f]{4}$/;

export interface EmojiInfo {
  /** the name an award is given with */
  name: string;
  /** every name of it, the award name included */
  names: readonly string[];
  char: string;
  description: string;
  tags: readonly string[];
  category: CategoryKey;
}

export interface EmojiData {
  list: readonly EmojiInfo[];
  /** every name and alias → its emoji */
  byName: ReadonlyMap<string, EmojiInfo>;
}

export function buildEmojiData(gemoji: readonly Gemoji[]): EmojiData {
  const list: EmojiInfo[] = [];
  const byName = new Map<string, EmojiInfo>();
  for (const entry of gemoji) {
    const category = CATEGORY_OF[entry.category];
    const names = entry.names.filter((name) => !NOT_AWARDABLE.test(name));
    if (!category || names.length === 0) continue;
    const info: EmojiInfo = {
      name: names.find((name) => !ALIASES.has(name)) ?? names[0]!,
      names,
      char: entry.emoji,
      description: entry.description,
      tags: entry.tags,
      category,
    };
    list.push(info);
    for (const name of names) if (!byName.has(name)) byName.set(name, info);
  }
  return { list, byName };
}

export async function loadEmojiData(): Promise<EmojiData> {
  const { gemoji } = await import('gemoji');
  return buildEmojiData(gemoji);
}
