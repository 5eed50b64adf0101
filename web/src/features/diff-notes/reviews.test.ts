import { describe, expect, it } from 'vitest';
import { isReviewed, parseReviews, reviewFingerprint, reviewsKey, setReviewed, type ReviewedFile } from './reviews';

const file = (diff: string, extra: Partial<ReviewedFile> = {}): ReviewedFile => ({ oldPath: 'src/app.ts', newPath: 'src/app.ts', deletedFile: false, aMode: '100644', bMode: '100644', diff, ...extra });

describe('file reviews', () => {
  it('are kept per merge request, under GitLab’s key', () => {
    expect(reviewsKey('g/p', 3)).toBe('/g/p/-/merge_requests/3-file-reviews');
  });

  it('keeps a file reviewed while its change stays the same', () => {
    const reviews = setReviewed({}, file('@@ -1 +1 @@\n-a\n+b\n'), true);
    expect(isReviewed(reviews, file('@@ -1 +1 @@\n-a\n+b\n'))).toBe(true);
  });

  it('forgets the review when the file changes again (a new push)', () => {
    const reviews = setReviewed({}, file('@@ -1 +1 @@\n-a\n+b\n'), true);
    expect(isReviewed(reviews, file('@@ -1 +1 @@\n-a\n+c\n'))).toBe(false);
    expect(isReviewed(reviews, file('@@ -1 +1 @@\n-a\n+b\n', { bMode: '100755' }))).toBe(false);
  });

  it('keys a deleted file by its old path, and unmarks', () => {
    const deleted = file('@@ -1 +0,0 @@\n-a\n', { newPath: 'src/app.ts', deletedFile: true, oldPath: 'src/old.ts' });
    const reviews = setReviewed({}, deleted, true);
    expect(Object.keys(reviews)).toEqual(['src/old.ts']);
    expect(setReviewed(reviews, deleted, false)).toEqual({});
  });

  it('hashes the same change the same way, and different changes differently', () => {
    expect(reviewFingerprint(file('x'))).toBe(reviewFingerprint(file('x')));
    expect(reviewFingerprint(file('x'))).not.toBe(reviewFingerprint(file('y')));
  });

  it.each([null, '', 'not json', '[]', '{"a.ts": true}', '{"a.ts": 1}'])('reads %j as no reviews', (stored) => {
    expect(parseReviews(stored)).toEqual({});
  });

  it('reads what it stored', () => {
    const reviews = setReviewed({}, file('x'), true);
    expect(parseReviews(JSON.stringify(reviews))).toEqual(reviews);
  });
});
