import { emojiImageUrl, isEmojiText } from '../lib/emoji-image';
import { isEmojiSupported } from '../lib/emoji-support';
import styles from './Emoji.module.css';

/**
 * Markdown's emoji (`<gl-emoji data-name="…">char</gl-emoji>`, made by the server's renderer and
 * allowed by its sanitizer) get the same fallback as the `Emoji` component, in the DOM the
 * server's HTML was written into: where the browser does not draw the emoji, its image goes
 * first (alt `:name:`) and the character stays, visually hidden and aria-hidden. Elements are
 * built node by node, never from HTML; text that is not an emoji is left alone.
 */
export function upgradeGlEmoji(root: ParentNode): void {
  for (const element of root.querySelectorAll('gl-emoji:not([data-upgraded])')) {
    element.setAttribute('data-upgraded', '');
    const unicode = element.textContent ?? '';
    const name = element.getAttribute('data-name');
    if (!name || !isEmojiText(unicode) || isEmojiSupported(unicode)) continue;
    const image = document.createElement('img');
    image.className = styles.image!;
    image.src = emojiImageUrl(unicode);
    image.alt = `:${name}:`;
    image.title = `:${name}:`;
    image.loading = 'lazy';
    image.decoding = 'async';
    const text = document.createElement('span');
    text.className = 'visually-hidden';
    text.setAttribute('aria-hidden', 'true');
    text.append(...element.childNodes);
    element.replaceChildren(image, text);
  }
}
