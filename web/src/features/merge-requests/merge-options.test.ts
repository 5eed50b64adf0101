import { describe, expect, it } from 'vitest';
import { MERGE_OPTION, squashOptionText } from './merge-options';

describe('squashOptionText', () => {
  it.each([
    ['open, not squashing', { state: 'opened', squash: false, squash_on_merge: false }, 'Commits are kept as they are'],
    ['open, squashing', { state: 'opened', squash: true, squash_on_merge: true }, MERGE_OPTION.squash],
    ['open, the project always squashes', { state: 'opened', squash: false, squash_on_merge: true }, MERGE_OPTION.squash],
    ['merged with a squash chosen in the widget', { state: 'merged', squash: false, squash_on_merge: false, squash_commit_sha: 'abc' }, 'Commits were squashed into one when merged'],
    ['merged without squashing', { state: 'merged', squash: false, squash_commit_sha: null }, 'Commits were kept as they are'],
  ])('%s', (_name, mr, text) => {
    expect(squashOptionText(mr)).toBe(text);
  });
});
