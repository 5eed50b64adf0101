import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MERGE_COMMIT_TEMPLATE,
  mergeTemplate,
  needsCommits,
  placeholdersIn,
  renderCommitMessage,
  squashTemplate,
  type MessageCommit,
  type MessageContext,
} from './commit-message.js';

const commit = (message: string, author = 'Ann', parents = 1): MessageCommit => ({
  message,
  author_name: author,
  author_email: `${author.toLowerCase()}@example.com`,
  parent_ids: Array.from({ length: parents }, (_, i) => `p${i}`),
});

const context = (overrides: Partial<MessageContext> = {}): MessageContext => ({
  sourceBranch: 'feature',
  targetBranch: 'main',
  title: 'Add feature',
  description: 'Long\ndescription',
  reference: 'group/project!7',
  localReference: '!7',
  sourceProjectId: 12,
  url: 'http://host/group/project/-/merge_requests/7',
  // newest first, as git log lists them
  commits: [commit('Third'), commit('Second\n\nwith a body', 'Bob'), commit('First', 'Cid')],
  author: { name: 'Ann', email: 'ann@example.com' },
  mergedBy: { name: 'Max', email: 'max@example.com' },
  approvedBy: [],
  reviewedBy: [],
  issues: null,
  ...overrides,
});

describe('renderCommitMessage', () => {
  it("renders GitLab's default merge message without the empty issues line", () => {
    expect(renderCommitMessage(DEFAULT_MERGE_COMMIT_TEMPLATE, context())).toBe("Merge branch 'feature' into 'main'\n\nAdd feature\n\nSee merge request group/project!7");
  });

  it('keeps the issues line when there are issues', () => {
    expect(renderCommitMessage(DEFAULT_MERGE_COMMIT_TEMPLATE, context({ issues: 'Closes #1' }))).toBe(
      "Merge branch 'feature' into 'main'\n\nAdd feature\n\nCloses #1\n\nSee merge request group/project!7",
    );
  });

  it.each([
    ['%{source_branch}', 'feature'],
    ['%{target_branch}', 'main'],
    ['%{title}', 'Add feature'],
    ['%{description}', 'Long\ndescription'],
    ['%{reference}', 'group/project!7'],
    ['%{local_reference}', '!7'],
    ['%{source_project_id}', '12'],
    ['%{url}', 'http://host/group/project/-/merge_requests/7'],
    ['%{first_commit}', 'First'],
    ['%{first_multiline_commit}', 'Second\n\nwith a body'],
    ['%{first_multiline_commit_description}', 'with a body'],
    ['%{merged_by}', 'Max <max@example.com>'],
    ['%{merge_request_author}', 'Ann <ann@example.com>'],
    ['%{all_commits}', '* Third\n\n* Second\n\nwith a body\n\n* First'],
  ])('replaces %s', (template, expected) => {
    expect(renderCommitMessage(template, context())).toBe(expected);
  });

  it('lists co-authors except the commit author: the merger for a merge, the author for a squash', () => {
    const ctx = context({ commits: [commit('a', 'Max'), commit('b', 'Bob'), commit('c', 'Ann')] });
    expect(renderCommitMessage('%{co_authored_by}', ctx)).toBe('Co-authored-by: Bob <bob@example.com>\nCo-authored-by: Ann <ann@example.com>');
    expect(renderCommitMessage('%{co_authored_by}', ctx, { squash: true })).toBe('Co-authored-by: Max <max@example.com>\nCo-authored-by: Bob <bob@example.com>');
  });

  it('formats approvers and reviewers as trailers', () => {
    const people = [{ name: 'Sid', email: 'sid@example.com' }];
    expect(renderCommitMessage('%{approved_by}\n%{reviewed_by}', context({ approvedBy: people, reviewedBy: people }))).toBe(
      'Approved-by: Sid <sid@example.com>\nReviewed-by: Sid <sid@example.com>',
    );
  });

  it('falls back to the title when no commit has a body, and skips merge commits', () => {
    const ctx = context({ commits: [commit('Merge x\n\nbody', 'Ann', 2), commit('Plain')] });
    expect(renderCommitMessage('%{first_multiline_commit}', ctx)).toBe('Add feature');
    expect(renderCommitMessage('%{all_commits}', ctx)).toBe('* Plain');
  });

  it('removes a line holding only an empty placeholder, and the blank line before it at the end', () => {
    expect(renderCommitMessage('Title\n\n%{approved_by}', context())).toBe('Title');
    expect(renderCommitMessage('Title\n%{approved_by}\nEnd', context())).toBe('Title\nEnd');
    expect(renderCommitMessage('Title\n\n%{approved_by}\n\nEnd', context())).toBe('Title\n\nEnd');
  });

  it('keeps text around an empty placeholder on the same line', () => {
    expect(renderCommitMessage('By: %{approved_by}.', context())).toBe('By: .');
  });

  it('does not read substituted values as placeholders, and leaves unknown ones alone', () => {
    expect(renderCommitMessage('%{title} %{unknown}', context({ title: 'Use %{source_branch}' }))).toBe('Use %{source_branch} %{unknown}');
  });

  it('drops carriage returns from templates', () => {
    expect(renderCommitMessage('%{title}\r\n\r\nbody', context())).toBe('Add feature\n\nbody');
  });
});

describe('templates', () => {
  it('lists the placeholders a template uses and whether it needs commits', () => {
    expect(placeholdersIn(DEFAULT_MERGE_COMMIT_TEMPLATE)).toEqual(['source_branch', 'target_branch', 'title', 'issues', 'reference']);
    expect(needsCommits(DEFAULT_MERGE_COMMIT_TEMPLATE)).toBe(false);
    expect(needsCommits('%{title}\n\n%{co_authored_by}')).toBe(true);
  });

  it("uses GitLab's defaults when the project has no template", () => {
    expect(mergeTemplate(null)).toBe(DEFAULT_MERGE_COMMIT_TEMPLATE);
    expect(mergeTemplate('  ')).toBe(DEFAULT_MERGE_COMMIT_TEMPLATE);
    expect(mergeTemplate('%{title}')).toBe('%{title}');
    expect(squashTemplate(undefined)).toBe('%{title}');
    expect(squashTemplate('%{title} (%{local_reference})')).toBe('%{title} (%{local_reference})');
  });
});
