/**
 * What system notes say, in GitLab's words (SystemNotes::IssuablesService, CommitService,
 * MergeRequestsService). Pure: the projection (system-notes.service.ts) supplies the facts.
 */
import { draftlessTitle } from '../merge-requests/draft.js';
import { trainNoteBody } from '../merge-trains/train-notes.js';
import type { MergeRequestEventAction } from '../merge-requests/merge-request.js';

export interface SystemNoteText {
  body: string;
  /** GitLab's system_note_metadata.action (the page picks the icon from it) */
  action: string;
}

export interface EventFacts {
  action: MergeRequestEventAction;
  from: string | null;
  to: string | null;
}

/** Commits listed in an "added N commits" note; the count always tells the whole number. */
export const SYSTEM_NOTE_COMMITS_LIMIT = 100;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * GitLab's Gitlab::Diff::InlineDiff on two titles: the changed middle between the longest
 * common prefix and suffix, marked `{-…-}` in the old title and `{+…+}` in the new one.
 */
export function markTitleChange(oldTitle: string, newTitle: string): { old: string; new: string } {
  const oldChars = [...oldTitle];
  const newChars = [...newTitle];
  let prefix = 0;
  while (prefix < oldChars.length && prefix < newChars.length && oldChars[prefix] === newChars[prefix]) prefix++;
  let suffix = 0;
  while (suffix < oldChars.length - prefix && suffix < newChars.length - prefix && oldChars[oldChars.length - 1 - suffix] === newChars[newChars.length - 1 - suffix]) suffix++;
  const mark = (chars: string[], symbol: '-' | '+') => {
    const middle = chars.slice(prefix, chars.length - suffix).join('');
    if (middle === '') return chars.join('');
    return `${chars.slice(0, prefix).join('')}{${symbol}${middle}${symbol}}${chars.slice(chars.length - suffix).join('')}`;
  };
  return { old: mark(oldChars, '-'), new: mark(newChars, '+') };
}

/**
 * The note for one merge request event, or null when GitLab writes none (opening a merge
 * request; a title change that only added or removed the draft prefix, which the draft event
 * reports instead).
 */
export function eventNote(event: EventFacts): SystemNoteText | null {
  switch (event.action) {
    case 'opened':
      return null;
    case 'closed':
      return { body: 'closed', action: 'closed' };
    case 'reopened':
      return { body: 'reopened', action: 'opened' };
    case 'merged':
      return { body: 'merged', action: 'merged' };
    case 'draft':
      return { body: 'marked this merge request as **draft**', action: 'title' };
    case 'ready':
      return { body: 'marked this merge request as **ready**', action: 'title' };
    case 'retargeted':
      return { body: `changed target branch from \`${event.from ?? ''}\` to \`${event.to ?? ''}\``, action: 'branch' };
    case 'description':
      // the version it made is the event's to_value: description-versions/ links the two
      return { body: 'changed the description', action: 'description' };
    case 'assignees':
      return userChangeNote(event, 'assigned to', 'unassigned', 'assignee');
    case 'reviewers':
      return userChangeNote(event, 'requested review from', 'removed review request for', 'reviewer');
    case 'labels':
      return labelsNote(event.to, event.from);
    case 'milestone':
      // GitLab's MilestoneNote: the new milestone, or which one was removed
      if (event.to) return { body: `changed milestone to ${event.to}`, action: 'milestone' };
      return { body: event.from ? `removed milestone ${event.from}` : 'removed milestone', action: 'milestone' };
    case 'approved':
      return { body: 'approved this merge request', action: 'approved' };
    case 'unapproved':
      return { body: 'unapproved this merge request', action: 'unapproved' };
    case 'approvals_reset':
      return approvalsResetNote(event);
    case 'approvals_kept':
      // Tributary's own: approvals survive a push that leaves the diff as it was
      return { body: `kept approvals from ${toSentence(parseUsernames(event.from).map((name) => `@${name}`))} because the push left the diff unchanged`, action: 'approved' };
    case 'requested_changes':
      return { body: 'requested changes', action: 'requested_changes' };
    case 'reviewed':
      return null;
    case 'merge_train':
      return { body: trainNoteBody(event.from, event.to), action: 'merge' };
    // GitLab's SystemNotes::MergeRequestsService (merge_when_checks_pass, cancel_auto_merge, abort_auto_merge)
    case 'auto_merge_enabled':
      return { body: `enabled an automatic merge when all merge checks for ${(event.to ?? '').slice(0, 8)} pass`, action: 'merge' };
    case 'auto_merge_canceled':
      return { body: 'canceled the automatic merge', action: 'merge' };
    case 'auto_merge_aborted':
      return { body: `aborted the automatic merge because ${event.to ?? ''}`, action: 'merge' };
    case 'title': {
      const from = event.from ?? '';
      const to = event.to ?? '';
      if (draftlessTitle(from) === draftlessTitle(to)) return null;
      const marked = markTitleChange(from, to);
      return { body: `changed title from **${marked.old}** to **${marked.new}**`, action: 'title' };
    }
  }
}

/**
 * GitLab's approvals_reset note: whose approvals went, and why (to_value 'push' when a push
 * removed them; the API's reset_approvals otherwise).
 */
function approvalsResetNote(event: EventFacts): SystemNoteText | null {
  const names = parseUsernames(event.from).map((name) => `@${name}`);
  if (names.length === 0) return null;
  return { body: `reset approvals from ${toSentence(names)}${event.to === 'push' ? ' by pushing to the branch' : ''}`, action: 'reset' };
}

/** An assignee or reviewer event stores usernames space-separated (usernames have no spaces). */
const parseUsernames = (value: string | null) => (value ?? '').split(' ').filter((name) => name !== '');

/** Rails' Array#to_sentence: "a", "a and b", "a, b, and c". */
export function toSentence(words: string[]): string {
  if (words.length <= 2) return words.join(' and ');
  return `${words.slice(0, -1).join(', ')}, and ${words[words.length - 1]}`;
}

/**
 * GitLab's change_issuable_assignees / change_issuable_reviewers: who was added, then who was
 * removed, joined by " and " ("assigned to @a and unassigned @b"); null when the set is the same.
 */
function userChangeNote(event: EventFacts, addedVerb: string, removedVerb: string, action: string): SystemNoteText | null {
  const before = parseUsernames(event.from);
  const after = parseUsernames(event.to);
  const added = after.filter((name) => !before.includes(name));
  const removed = before.filter((name) => !after.includes(name));
  const parts: string[] = [];
  if (added.length > 0) parts.push(`${addedVerb} ${toSentence(added.map((name) => `@${name}`))}`);
  if (removed.length > 0) parts.push(`${removedVerb} ${toSentence(removed.map((name) => `@${name}`))}`);
  return parts.length === 0 ? null : { body: parts.join(' and '), action };
}

/**
 * GitLab's change_label_note: "added ~1 ~2 labels", "added ~1 and removed ~3 labels",
 * "removed ~3 label"; `added` and `removed` are space-separated label references by id.
 */
export function labelsNote(added: string | null, removed: string | null): SystemNoteText | null {
  const count = [added, removed].flatMap((refs) => (refs ? refs.split(' ').filter(Boolean) : [])).length;
  if (count === 0) return null;
  const parts: string[] = [];
  if (added) parts.push(`added ${added}`);
  if (added && removed) parts.push('and');
  if (removed) parts.push(`removed ${removed}`);
  parts.push(count === 1 ? 'label' : 'labels');
  return { body: parts.join(' '), action: 'label' };
}

export interface PushedCommit {
  short_id: string;
  title: string;
}

/**
 * "added N commits" with the list of new commits (newest first, at most
 * SYSTEM_NOTE_COMMITS_LIMIT) and a link comparing with the previous version.
 */
export function commitsNote(commits: PushedCommit[], total: number, compareUrl: string): SystemNoteText {
  const items = commits.slice(0, SYSTEM_NOTE_COMMITS_LIMIT).map((commit) => `<li>${escapeHtml(commit.short_id)} - ${escapeHtml(commit.title)}</li>`);
  const body = [`added ${total} ${total === 1 ? 'commit' : 'commits'}`, `<ul>${items.join('')}</ul>`, `[Compare with previous version](${compareUrl})`].join('\n\n');
  return { body, action: 'commit' };
}
