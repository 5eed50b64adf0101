import type { DiffFile } from '../../lib/diff-file';

/**
 * Files marked reviewed ("Viewed"), remembered per merge request in localStorage as GitLab
 * does (key `<merge request path>-file-reviews`): a reviewed file starts collapsed. Each path
 * holds the fingerprint of the file's change when it was marked, so a file that changes again
 * (a new push) is no longer reviewed, as in GitLab, while an unchanged one stays reviewed
 * across versions. Pure, apart from the storage passed in.
 */
export type Reviews = Readonly<Record<string, string>>;

export type ReviewedFile = Pick<DiffFile, 'oldPath' | 'newPath' | 'deletedFile' | 'aMode' | 'bMode' | 'diff'>;

export function reviewsKey(projectPath: string, iid: number): string {
  return `/${projectPath}/-/merge_requests/${iid}-file-reviews`;
}

/** The path a review is kept under: the new one, or the old one for a deleted file. */
const pathOf = (file: ReviewedFile) => (file.deletedFile ? file.oldPath : file.newPath);

/**
 * What the change to a file is: its paths, modes and patch, hashed (cyrb53, 53 bits: two
 * different changes of one file colliding is not a concern for a reading aid).
 */
export function reviewFingerprint(file: ReviewedFile): string {
  const text = `${file.oldPath}\0${file.newPath}\0${file.aMode}\0${file.bMode}\0${file.diff}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** Stored reviews; anything else (another format, a hand edit) counts as none. */
export function parseReviews(stored: string | null): Reviews {
  if (!stored) return {};
  try {
    const value: unknown = JSON.parse(stored);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter(([, fingerprint]) => typeof fingerprint === 'string')) as Reviews;
  } catch {
    return {};
  }
}

export function isReviewed(reviews: Reviews, file: ReviewedFile): boolean {
  const fingerprint = reviews[pathOf(file)];
  return fingerprint !== undefined && fingerprint === reviewFingerprint(file);
}

export function setReviewed(reviews: Reviews, file: ReviewedFile, reviewed: boolean): Reviews {
  const next: Record<string, string> = { ...reviews };
  if (reviewed) next[pathOf(file)] = reviewFingerprint(file);
  else delete next[pathOf(file)];
  return next;
}
