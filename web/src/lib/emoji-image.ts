/**
 * Where an emoji's image is: Twemoji's SVGs (the `@twemoji/svg` package, copied into the web
 * build's `emoji/` folder by vite.config.ts and served by our own server). The file name is
 * Twemoji's own rule (twemoji.parse's grabTheRightIcon): the code points in lower-case hex joined
 * by '-', without U+FE0F (the emoji presentation selector) unless the sequence has a U+200D joiner.
 * Computed, not looked up, so the app ships no table of URLs.
 */
export const EMOJI_IMAGE_PATH = '/emoji/';

const JOINER = '\u200d';
const PRESENTATION_SELECTOR = /\ufe0f/g;

export function emojiImageFile(unicode: string): string {
  const text = unicode.includes(JOINER) ? unicode : unicode.replace(PRESENTATION_SELECTOR, '');
  return `${[...text].map((char) => char.codePointAt(0)!.toString(16)).join('-')}.svg`;
}

export const emojiImageUrl = (unicode: string): string => `${EMOJI_IMAGE_PATH}${emojiImageFile(unicode)}`;

/** An emoji's text: a short run of characters with at least one pictograph, regional indicator or keycap mark. */
const EMOJI_TEXT = /^(?=.*[\p{Extended_Pictographic}\p{Regional_Indicator}\u20e3]).{1,16}$/su;

/** Whether text (a Markdown `<gl-emoji>`'s, which raw HTML could forge) is an emoji, to show as an image. */
export const isEmojiText = (text: string): boolean => EMOJI_TEXT.test(text);
