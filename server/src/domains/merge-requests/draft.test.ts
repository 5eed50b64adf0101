import { describe, expect, it } from 'vitest';
import { draftlessTitle, draftTitle, isDraftTitle, titleWithDraft } from './draft.js';

describe('draft titles (GitLab rules)', () => {
  it.each([
    ['Draft: Add x', true, 'Add x'],
    ['draft:Add x', true, 'Add x'],
    ['DRAFT:   Add x', true, 'Add x'],
    ['[Draft] Add x', true, 'Add x'],
    ['[draft]Add x', true, 'Add x'],
    ['(Draft) Add x', true, 'Add x'],
    ['(draft) (Draft) Add x', true, '(Draft) Add x'],
    ['Draft:[Draft] Add x', true, '[Draft] Add x'],
    ['Add x', false, 'Add x'],
    ['Add Draft: x', false, 'Add Draft: x'],
    [' Draft: Add x', false, ' Draft: Add x'],
    ['Draft Add x', false, 'Draft Add x'],
    ['WIP: Add x', false, 'WIP: Add x'],
    ['[WIP] Add x', false, '[WIP] Add x'],
  ])('%j → draft %s, draftless %j', (title, draft, draftless) => {
    expect(isDraftTitle(title)).toBe(draft);
    expect(draftlessTitle(title)).toBe(draftless);
  });

  it('prefixes a title only once', () => {
    expect(draftTitle('Add x')).toBe('Draft: Add x');
    expect(draftTitle('[Draft] Add x')).toBe('[Draft] Add x');
  });

  it('applies the draft flag of an API call', () => {
    expect(titleWithDraft('Add x', true)).toBe('Draft: Add x');
    expect(titleWithDraft('(Draft) Add x', false)).toBe('Add x');
    expect(titleWithDraft('Draft: Add x', undefined)).toBe('Draft: Add x');
  });
});
