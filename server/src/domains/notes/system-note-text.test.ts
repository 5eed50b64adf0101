import { describe, expect, it } from 'vitest';
import { commitsNote, eventNote, labelsNote, markTitleChange, SYSTEM_NOTE_COMMITS_LIMIT } from './system-note-text.js';

describe('markTitleChange', () => {
  it.each([
    ['Fix the bug', 'Fix a bug', 'Fix {-the-} bug', 'Fix {+a+} bug'],
    ['Add feature', 'Add feature X', 'Add feature', 'Add feature{+ X+}'],
    ['Old', 'New', '{-Old-}', '{+New+}'],
    ['Café ☕', 'Café 🍵', 'Café {-☕-}', 'Café {+🍵+}'],
  ])('%s → %s', (before, after, old, marked) => {
    expect(markTitleChange(before, after)).toEqual({ old, new: marked });
  });
});

describe('eventNote', () => {
  it.each([
    ['closed', null, null, 'closed', 'closed'],
    ['reopened', null, null, 'reopened', 'opened'],
    ['merged', null, null, 'merged', 'merged'],
    ['draft', null, null, 'marked this merge request as **draft**', 'title'],
    ['ready', null, null, 'marked this merge request as **ready**', 'title'],
    ['retargeted', 'main', 'release', 'changed target branch from `main` to `release`', 'branch'],
    ['title', 'Fix the bug', 'Fix a bug', 'changed title from **Fix {-the-} bug** to **Fix {+a+} bug**', 'title'],
    ['approved', null, null, 'approved this merge request', 'approved'],
    ['unapproved', null, null, 'unapproved this merge request', 'unapproved'],
    ['approvals_reset', 'alice bob', 'push', 'reset approvals from @alice and @bob by pushing to the branch', 'reset'],
    ['approvals_reset', 'alice', null, 'reset approvals from @alice', 'reset'],
    ['approvals_kept', 'alice', null, 'kept approvals from @alice because the push left the diff unchanged', 'approved'],
    ['requested_changes', null, null, 'requested changes', 'requested_changes'],
    ['auto_merge_enabled', null, '0123456789abcdef0123456789abcdef01234567', 'enabled an automatic merge when all merge checks for 01234567 pass', 'merge'],
    ['auto_merge_canceled', null, null, 'canceled the automatic merge', 'merge'],
    ['auto_merge_aborted', null, 'source branch was updated', 'aborted the automatic merge because source branch was updated', 'merge'],
  ] as const)('%s', (action, from, to, body, icon) => {
    expect(eventNote({ action, from, to })).toEqual({ body, action: icon });
  });

  it.each([
    ['assignees', '', 'alice', 'assigned to @alice', 'assignee'],
    ['assignees', 'alice', 'alice bob carol', 'assigned to @bob and @carol', 'assignee'],
    ['assignees', 'alice', 'bob', 'assigned to @bob and unassigned @alice', 'assignee'],
    ['assignees', 'alice bob carol', '', 'unassigned @alice, @bob, and @carol', 'assignee'],
    ['reviewers', null, 'alice', 'requested review from @alice', 'reviewer'],
    ['reviewers', 'alice', 'bob', 'requested review from @bob and removed review request for @alice', 'reviewer'],
    ['reviewers', 'alice bob', 'bob', 'removed review request for @alice', 'reviewer'],
  ] as const)('%s %s → %s', (action, from, to, body, icon) => {
    expect(eventNote({ action, from, to })).toEqual({ body, action: icon });
  });

  it('says nothing when the assignees or reviewers are the same people', () => {
    expect(eventNote({ action: 'assignees', from: 'alice bob', to: 'bob alice' })).toBeNull();
    expect(eventNote({ action: 'reviewers', from: '', to: '' })).toBeNull();
  });

  it('says nothing for opening, or for a title change that only toggled the draft prefix', () => {
    expect(eventNote({ action: 'opened', from: null, to: null })).toBeNull();
    expect(eventNote({ action: 'title', from: 'Draft: Fix', to: 'Fix' })).toBeNull();
    expect(eventNote({ action: 'title', from: 'Fix', to: '[Draft] Fix' })).toBeNull();
  });
});

describe('commitsNote', () => {
  it('lists the new commits, escaped, and links to the comparison', () => {
    const note = commitsNote(
      [
        { short_id: 'abcdef12', title: 'Second <b>bold</b>' },
        { short_id: '12345678', title: 'First & only' },
      ],
      2,
      '/g/p/-/merge_requests/1/diffs?diff_id=3&start_sha=0123',
    );
    expect(note).toEqual({
      action: 'commit',
      body: 'added 2 commits\n\n<ul><li>abcdef12 - Second &lt;b&gt;bold&lt;/b&gt;</li><li>12345678 - First &amp; only</li></ul>\n\n[Compare with previous version](/g/p/-/merge_requests/1/diffs?diff_id=3&start_sha=0123)',
    });
  });

  it('says "1 commit" and lists at most the limit, while counting all', () => {
    expect(commitsNote([{ short_id: 'a', title: 't' }], 1, '/x').body.startsWith('added 1 commit\n')).toBe(true);
    const many = Array.from({ length: SYSTEM_NOTE_COMMITS_LIMIT + 5 }, (_, i) => ({ short_id: String(i), title: 't' }));
    const body = commitsNote(many, 250, '/x').body;
    expect(body.startsWith('added 250 commits')).toBe(true);
    expect(body.match(/<li>/g)).toHaveLength(SYSTEM_NOTE_COMMITS_LIMIT);
  });
});

describe('label and milestone notes', () => {
  it.each([
    ['~1', null, 'added ~1 label'],
    ['~1 ~2', null, 'added ~1 ~2 labels'],
    [null, '~3', 'removed ~3 label'],
    ['~1', '~3', 'added ~1 and removed ~3 labels'],
  ])('labels added %j removed %j: %s', (to, from, body) => {
    expect(eventNote({ action: 'labels', from, to })).toEqual({ body, action: 'label' });
  });

  it('writes nothing for an empty change', () => expect(labelsNote(null, null)).toBeNull());

  it.each([
    [null, '%1', 'changed milestone to %1'],
    ['%1', '%"Release 2"', 'changed milestone to %"Release 2"'],
    ['%1', null, 'removed milestone %1'],
    [null, null, 'removed milestone'],
  ])('milestone %j → %j: %s', (from, to, body) => {
    expect(eventNote({ action: 'milestone', from, to })).toEqual({ body, action: 'milestone' });
  });
});
