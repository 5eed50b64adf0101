/**
 * Award emoji names: GitLab validates them against its emoji list (Gitlab::Emoji, TanukiEmoji)
 * and stores the canonical name, so `+1` becomes `thumbsup`. Our list is markdown-it-emoji's
 * (the one the Markdown renderer uses for `:name:`), so an award and a rendered emoji agree.
 */
import emojiByName from 'markdown-it-emoji/lib/data/full.mjs';

const UPVOTE_NAME = 'thumbsup';
const DOWNVOTE_NAME = 'thumbsdown';

/** GitLab's aliases for the two votes (Gitlab::Emoji.normalize_emoji_name). */
const ALIASES: Readonly<Record<string, string>> = { '+1': UPVOTE_NAME, '-1': DOWNVOTE_NAME, thumbs_up: UPVOTE_NAME, thumbs_down: DOWNVOTE_NAME };

const NAMES: ReadonlySet<string> = new Set(Object.keys(emojiByName));

/** The canonical name, or null when it names no emoji. Names are without colons, as in the API. */
export function normalizeEmojiName(name: string): string | null {
  const bare = name.trim();
  const canonical = ALIASES[bare] ?? bare;
  return NAMES.has(canonical) ? canonical : null;
}

/** The emoji character of a canonical name (null for a name not on the list). */
export function emojiCharacter(name: string): string | null {
  return (emojiByName as Record<string, string>)[name] ?? null;
}
