import { describe, expect, it } from 'vitest';
import { failedToMergeText, mergeErrorBanner } from './merge-error';

describe('mergeErrorBanner', () => {
  it("adds '. Try again.' after the error, without its own trailing period", () => {
    expect(mergeErrorBanner('Branch cannot be merged.')).toEqual({ text: 'Branch cannot be merged. Try again.', storageLink: false });
    expect(mergeErrorBanner('Rebase failed. Please rebase locally')).toEqual({ text: 'Rebase failed. Please rebase locally. Try again.', storageLink: false });
  });

  it('shows a full-namespace-storage error unchanged, with the storage link', () => {
    const error = 'Your namespace storage is full. This merge request cannot be merged.';
    expect(mergeErrorBanner(error)).toEqual({ text: error, storageLink: true });
  });
});

describe('failedToMergeText', () => {
  it("says 'Merge failed.' without an error, else the cleaned error", () => {
    expect(failedToMergeText(null)).toBe('Merge failed.');
    expect(failedToMergeText('')).toBe('Merge failed.');
    expect(failedToMergeText('Branch cannot be merged')).toBe('Branch cannot be merged.');
    expect(failedToMergeText('Branch cannot be merged.')).toBe('Branch cannot be merged.');
  });
});
