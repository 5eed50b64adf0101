/**
 * Image diff: which change a file is (replaced, new, deleted, renamed), which views it
 * offers (2-up, swipe, onion skin for a replaced image; one view otherwise), and the
 * geometry of those views. Pure, as GitLab's image diff.
 */
export type ImageChange = 'replaced' | 'new' | 'deleted' | 'renamed';
export type ImageViewMode = 'twoup' | 'swipe' | 'onion';

/** The swipe frame is this much wider than the larger image, so the handle never hides its edge. */
export const SWIPE_EXTRA_PX = 2;
/** Wait this long after a resize before measuring the frame again. */
export const IMAGE_RESIZE_DEBOUNCE_MS = 400;
/** The onion skin starts half way between the two images. */
export const ONION_DEFAULT_OPACITY = 0.5;
export const DEFAULT_IMAGE_VIEW: ImageViewMode = 'twoup';

export interface Size {
  width: number;
  height: number;
}

export function imageChange(file: { newFile: boolean; deletedFile: boolean; renamedFile: boolean }): ImageChange {
  if (file.newFile) return 'new';
  if (file.deletedFile) return 'deleted';
  if (file.renamedFile) return 'renamed';
  return 'replaced';
}

/** Only a replaced image can be compared; the others have one image to show. */
export function imageViewModes(change: ImageChange): ImageViewMode[] {
  return change === 'replaced' ? ['twoup', 'swipe', 'onion'] : [];
}

/** The image scaled down (never up) to fit a width, keeping its aspect ratio. */
export function fitWithin(natural: Size, maxWidth: number): Size {
  if (natural.width <= 0 || natural.height <= 0) return { width: 0, height: 0 };
  if (natural.width <= maxWidth) return { ...natural };
  const scale = maxWidth / natural.width;
  return { width: Math.round(maxWidth), height: Math.round(natural.height * scale) };
}

/**
 * The frame of the swipe and onion views: both images drawn from the top left at their
 * fitted sizes, so the frame is as large as the larger of them (plus SWIPE_EXTRA_PX for
 * swipe). Both images use one scale, so corresponding pixels line up.
 */
export function overlayFrame(before: Size, after: Size, maxWidth: number, extra = 0): { frame: Size; before: Size; after: Size } {
  const widest = Math.max(before.width, after.width, 1);
  const scale = Math.min(1, Math.max(1, maxWidth - extra) / widest);
  const scaled = (size: Size): Size => ({ width: Math.round(size.width * scale), height: Math.round(size.height * scale) });
  const b = scaled(before);
  const a = scaled(after);
  return { frame: { width: Math.max(b.width, a.width) + extra, height: Math.max(b.height, a.height) }, before: b, after: a };
}

/** Where the swipe handle is, in pixels from the frame's left edge, for a pointer at clientX. */
export function swipePosition(clientX: number, frameLeft: number, frameWidth: number): number {
  return Math.min(Math.max(clientX - frameLeft, 0), Math.max(frameWidth, 0));
}

/** The swipe handle moved by the keyboard: a tenth of the frame per arrow press. */
export function nudgeSwipe(position: number, frameWidth: number, direction: -1 | 1): number {
  return Math.min(Math.max(position + direction * Math.max(1, Math.round(frameWidth / 10)), 0), frameWidth);
}

/** An opacity from a 0–100 slider. */
export function opacityFromSlider(value: number): number {
  if (!Number.isFinite(value)) return ONION_DEFAULT_OPACITY;
  return Math.min(Math.max(value, 0), 100) / 100;
}
