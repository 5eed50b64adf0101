import { describe, expect, it } from 'vitest';
import { pickMessage } from './pick-message.js';

const commit = { id: 'a'.repeat(40), title: 'Add feature ', message: 'Add feature \n\nBody text\n' };

describe('pickMessage', () => {
  it('words a revert as GitLab does: the quoted title, then the reverted sha', () => {
    expect(pickMessage('revert', commit)).toBe(`Revert "Add feature"\n\nThis reverts commit ${'a'.repeat(40)}`);
  });

  it('keeps the message of a cherry-picked commit and names its origin', () => {
    expect(pickMessage('cherry-pick', commit)).toBe(`Add feature \n\nBody text\n\n(cherry picked from commit ${'a'.repeat(40)})`);
  });
});
