/**
 * Pure rules of project uploads (GitLab's FileUploader): the file name kept in the URL, the
 * secret, the size limit, the markdown GitLab answers with, and how a file is served.
 */

/** GitLab's default max attachment size (Application settings: 10 MB). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The random directory name of an upload: 32 lower-case hex characters (16 random bytes). */
export const UPLOAD_SECRET = /^[0-9a-f]{32}$/;

const MAX_FILENAME_CHARS = 255;

/**
 * CarrierWave's sanitize: the base name only (after the last `/` or `\`), every character
 * but word characters, `.`, `-` and `+` replaced by `_`, and a name of dots alone (`.`, `..`)
 * or nothing at all becomes `file`. The result is never a path: it is stored and compared,
 * and the bytes live under the secret alone.
 */
export function sanitizeFilename(name: string): string {
  const base = name.replace(/\0/g, '').split(/[/\\]/).pop() ?? '';
  let clean = base.replace(/[^\p{L}\p{N}_.+-]/gu, '_');
  if (/^\.*$/.test(clean)) clean = 'file';
  if ([...clean].length > MAX_FILENAME_CHARS) {
    const chars = [...clean];
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
    clean = chars.slice(0, MAX_FILENAME_CHARS - [...ext].length).join('') + ext;
  }
  return clean;
}

const extension = (filename: string) => {
  const dot = filename.lastIndexOf('.');
  return dot >= 0 ? filename.slice(dot + 1).toLowerCase() : '';
};

/** Raster images and videos a browser may show inline. SVG is not one: it can carry script. */
const INLINE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/vnd.microsoft.icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  avif: 'image/avif',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
};

const ATTACHMENT_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  md: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  zip: 'application/zip',
  gz: 'application/gzip',
};

/** GitLab's markdown for images and videos is `![alt](url)`; everything else is a link. */
export function isImageOrVideo(filename: string): boolean {
  return extension(filename) in INLINE_TYPES;
}

/** How a stored upload is sent: its type, and `attachment` for all but images and videos. */
export function servingHeaders(filename: string): Record<string, string> {
  const ext = extension(filename);
  const inline = INLINE_TYPES[ext];
  const type = inline ?? ATTACHMENT_TYPES[ext] ?? 'application/octet-stream';
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const disposition = `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
  return {
    'content-type': type,
    'content-disposition': disposition,
    'x-content-type-options': 'nosniff',
    // Even a file opened directly runs nothing from our origin.
    'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
    'cache-control': 'private, max-age=0, must-revalidate',
  };
}

/** GitLab's alt text: the file name without its extension. */
export function altText(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(0, dot) : filename;
}

/**
 * The `alt` of GitLab's upload answer (FileUploader#markdown_name): images and videos lose their
 * extension, every other file keeps its whole name; `]` is escaped.
 */
export function uploadAlt(filename: string): string {
  return (isImageOrVideo(filename) ? altText(filename) : filename).replace(/]/g, '\\]');
}

/** The markdown-escaped text of a link (brackets would end it early). */
const escapeLinkText = (text: string) => text.replace(/([\\[\]])/g, '\\$1');

/** The URL inside markdown and answers: `/uploads/<secret>/<name>`, the name percent-encoded. */
export function uploadUrl(secret: string, filename: string): string {
  return `/uploads/${secret}/${encodeURIComponent(filename)}`;
}

export function uploadMarkdown(secret: string, filename: string): string {
  const url = uploadUrl(secret, filename);
  return isImageOrVideo(filename) ? `![${escapeLinkText(altText(filename))}](${url})` : `[${escapeLinkText(filename)}](${url})`;
}
