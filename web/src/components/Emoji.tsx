import { emojiImageUrl } from '../lib/emoji-image';
import { isEmojiSupported } from '../lib/emoji-support';
import styles from './Emoji.module.css';

/**
 * One emoji, wherever the app shows one: the character where the browser draws it, else its
 * Twemoji image (GitLab's gl-emoji fallback). The image's alt is the emoji's name, `:name:` as in
 * GitLab's emojiImageTag; the character stays the element's text, visually hidden and hidden from
 * assistive technology, so copying, find-in-page and the text of the control it sits in are what
 * they were with the character shown. Images load lazily: a picker row out of view asks for none.
 */
export function Emoji({ name, unicode, className }: { name: string; unicode: string; className?: string }) {
  const classes = className ? `${styles.emoji} ${className}` : styles.emoji;
  if (isEmojiSupported(unicode)) {
    return (
      <span className={classes} data-emoji={name}>
        {unicode}
      </span>
    );
  }
  return (
    <span className={classes} data-emoji={name}>
      <img className={styles.image} src={emojiImageUrl(unicode)} alt={`:${name}:`} loading="lazy" decoding="async" draggable={false} />
      <span className="visually-hidden" aria-hidden="true">
        {unicode}
      </span>
    </span>
  );
}
