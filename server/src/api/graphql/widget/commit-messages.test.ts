import { describe, expect, it } from 'vitest';
import { defaultMergeCommitMessage, defaultSquashCommitMessage } from './commit-messages.js';

describe('default commit messages', () => {
  const mergeRequest = { source_branch: 'feature/x', target_branch: 'main', title: 'Add the widget', target_full_path: 'group/sub/app', iid: 7 };

  it("writes GitLab's merge commit message: branches, title, full reference", () => {
    expect(defaultMergeCommitMessage(mergeRequest)).toBe("Merge branch 'feature/x' into 'main'\n\nAdd the widget\n\nSee merge request group/sub/app!7");
  });

  it('squashes into the title', () => {
    expect(defaultSquashCommitMessage(mergeRequest)).toBe('Add the widget');
  });
});
