/**
 * Whether this browser draws an emoji itself, or needs its image (GitLab's gl-emoji fallback,
 * isEmojiUnicodeSupported): a system without a colour emoji font draws empty boxes or grey
 * outlines. Fonts support emoji by kind, so the answer is measured once per family (basic
 * emoji, flags, subdivision flags, keycaps, skin tones, joined sequences) on that family's
 * representative, and remembered for the page's life.
 */
export type EmojiFamily = 'basic' | 'flag' | 'subdivision-flag' | 'keycap' | 'skin-tone' | 'joined';

/** One colourful emoji per family: drawn in colour only by a font that has the family. */
export const FAMILY_REPRESENTATIVE: Readonly<Record<EmojiFamily, string>> = {
  basic: '😀',
  flag: '🇫🇷',
  'subdivision-flag': '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}',
  keycap: '1\ufe0f\u20e3',
  'skin-tone': '👋🏽',
  joined: '👩\u200d💻',
};

const REGIONAL_INDICATOR = /[\u{1f1e6}-\u{1f1ff}]/u;
const TAG = /[\u{e0020}-\u{e007f}]/u;
const SKIN_TONE = /[\u{1f3fb}-\u{1f3ff}]/u;

/** The family an emoji's code points put it in (the most specific one first). */
export function emojiFamily(unicode: string): EmojiFamily {
  if (TAG.test(unicode)) return 'subdivision-flag';
  if (unicode.includes('\u20e3')) return 'keycap';
  if (SKIN_TONE.test(unicode)) return 'skin-tone';
  if (unicode.includes('\u200d')) return 'joined';
  if (REGIONAL_INDICATOR.test(unicode)) return 'flag';
  return 'basic';
}

/** The measurement: does the browser draw this emoji in colour? */
export type DrawsInColour = (unicode: string) => boolean;

/** The support check, measuring each family at most once through `drawsInColour`. */
export function createEmojiSupport(drawsInColour: DrawsInColour): (unicode: string) => boolean {
  const known = new Map<EmojiFamily, boolean>();
  return (unicode) => {
    const family = emojiFamily(unicode);
    let supported = known.get(family);
    if (supported === undefined) {
      supported = drawsInColour(FAMILY_REPRESENTATIVE[family]);
      known.set(family, supported);
    }
    return supported;
  };
}

const SIZE = 32;
/** The fonts GitLab's check draws with: the platforms' colour emoji fonts, then the default. */
const EMOJI_FONT = `${SIZE * 0.75}px "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", sans-serif`;

/**
 * The canvas measurement: draw the emoji in black and look for a pixel that is not grey. A colour
 * font draws colours; a missing glyph (a box) or a monochrome font's glyph stays black and grey.
 * Without a 2D canvas there is nothing to measure: the text is kept.
 */
export function canvasDrawsInColour(unicode: string): boolean {
  const canvas = document.createElement('canvas');
  canvas.width = SIZE;
  canvas.height = SIZE;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return true;
  context.textBaseline = 'top';
  context.font = EMOJI_FONT;
  context.fillStyle = '#000';
  context.fillText(unicode, 0, 0);
  const pixels = context.getImageData(0, 0, SIZE, SIZE).data;
  for (let index = 0; index < pixels.length; index += 4) {
    if (pixels[index + 3]! > 0 && (pixels[index] !== pixels[index + 1] || pixels[index + 1] !== pixels[index + 2])) return true;
  }
  return false;
}

/** The page's one check: true where the browser draws the emoji itself. */
export const isEmojiSupported = createEmojiSupport((unicode) => canvasDrawsInColour(unicode));
