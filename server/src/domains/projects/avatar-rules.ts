/** GitLab's avatar limits and formats (Avatarable: 200 KiB; its allowed image extensions). */
export const MAX_AVATAR_BYTES = 200 * 1024;

const AVATAR_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  ico: 'image/vnd.microsoft.icon',
  webp: 'image/webp',
};

export const AVATAR_FORMAT_MESSAGE = `file format is not supported. Please try one of the following supported formats: ${Object.keys(AVATAR_TYPES).join(', ')}`;
export const AVATAR_SIZE_MESSAGE = 'is too big (should be at most 200 KiB)';

/** The content type of an acceptable avatar, or GitLab's error for it. Pure. */
export function avatarCheck(filename: string, size: number): { contentType: string } | { error: string } {
  const ext = filename.includes('.') ? filename.slice(filename.lastIndexOf('.') + 1).toLowerCase() : '';
  const contentType = AVATAR_TYPES[ext];
  if (!contentType) return { error: AVATAR_FORMAT_MESSAGE };
  if (size > MAX_AVATAR_BYTES) return { error: AVATAR_SIZE_MESSAGE };
  return { contentType };
}

/** A stored file name: the upload's name without folders or characters that need quoting in a URL path. */
export function avatarFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? 'avatar';
  return base.replace(/[^A-Za-z0-9._-]/g, '_') || 'avatar';
}
