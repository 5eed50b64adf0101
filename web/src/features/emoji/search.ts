import type { EmojiInfo } from './emoji-data';

/**
 * The picker's search: names first (exact, then starting with the text, then containing it),
 * then tags and descriptions, each group in the list's own order. `:tada:` finds `tada`.
 * Null when there is nothing to search for (the picker shows its categories then).
 */
export function searchEmoji(list: readonly EmojiInfo[], text: string): EmojiInfo[] | null {
  const query = text.trim().toLowerCase().replace(/^:|:$/g, '');
  if (query === '') return null;
  const scored: { emoji: EmojiInfo; score: number; order: number }[] = [];
  list.forEach((emoji, order) => {
    const score = scoreOf(emoji, query);
    if (score !== null) scored.push({ emoji, score, order });
  });
  return scored.sort((a, b) => a.score - b.score || a.order - b.order).map((entry) => entry.emoji);
}

function scoreOf(emoji: EmojiInfo, query: string): number | null {
  if (emoji.names.includes(query)) return 0;
  if (emoji.names.some((name) => name.startsWith(query))) return 1;
  if (emoji.names.some((name) => name.includes(query))) return 2;
  if (emoji.tags.some((tag) => tag.startsWith(query))) return 3;
  if (emoji.description.toLowerCase().includes(query)) return 4;
  return null;
}
