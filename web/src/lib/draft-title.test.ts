import { describe, expect, it } from 'vitest';
import { draftlessTitle, isDraftTitle, titleWithDraft } from './draft-title';

describe('draft titles', () => {
  it.each([
    ['Draft: Fix it', true],
    ['draft:Fix it', true],
    ['[Draft] Fix it', true],
    ['(draft) Fix it', true],
    ['Fix Draft: later', false],
    ['WIP: Fix it', false],
    ['Drafting a plan', false],
  ])('%s is a draft: %s', (title, expected) => expect(isDraftTitle(title)).toBe(expected));

  it('marks a title once', () => {
    expect(titleWithDraft('Fix it', true)).toBe('Draft: Fix it');
    expect(titleWithDraft('[Draft] Fix it', true)).toBe('[Draft] Fix it');
  });

  it('removes whichever prefix the title has, and the space after it', () => {
    expect(titleWithDraft('Draft:   Fix it', false)).toBe('Fix it');
    expect(titleWithDraft('(Draft) Fix it', false)).toBe('Fix it');
    expect(draftlessTitle('Fix it')).toBe('Fix it');
  });

  it('only strips one prefix, like GitLab', () => {
    expect(draftlessTitle('Draft: Draft: x')).toBe('Draft: x');
  });
});
