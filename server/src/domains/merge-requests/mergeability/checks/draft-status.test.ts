import { describe, expect, it } from 'vitest';
import { draftStatusCheck } from './draft-status.js';
import { mergeableFacts } from './test-facts.js';

describe('DRAFT_STATUS', () => {
  it('fails for a draft and passes otherwise', () => {
    expect(draftStatusCheck.run(mergeableFacts({ draft: true }))).toBe('FAILED');
    expect(draftStatusCheck.run(mergeableFacts({ draft: false }))).toBe('SUCCESS');
  });
});
