/**
 * The Activity section's rules, pure: filtering, sorting, storage keys, role badges, system
 * note icons and commit lists, the last own note (Up to edit), as GitLab's discussions do.
 */
import type { DiscussionEntity, NoteEntity } from './types';
import { ACCESS_LEVEL_NAMES, AccessLevel } from '@tributary/contracts/access-levels';

/** 0 all activity, 1 comments only; GitLab's 2 is history only. */
export const FILTER_ALL = 0;
export const FILTER_COMMENTS = 1;
export const FILTER_HISTORY = 2;
export type NotesFilter = typeof FILTER_ALL | typeof FILTER_COMMENTS | typeof FILTER_HISTORY;
export type SortDirection = 'asc' | 'desc';

/** A system note's commit list collapses above this many items. */
export const COMMIT_LIST_COLLAPSE_ABOVE = 3;
/** The replies toggle shows at most this many avatars. */
export const REPLY_AVATARS = 5;

const isSystemDiscussion = (discussion: DiscussionEntity) => discussion.notes.every((note) => note.system);

export function filterDiscussions(discussions: readonly DiscussionEntity[], filter: NotesFilter): DiscussionEntity[] {
  if (filter === FILTER_COMMENTS) return discussions.filter((d) => !isSystemDiscussion(d));
  if (filter === FILTER_HISTORY) return discussions.filter(isSystemDiscussion);
  return [...discussions];
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The server answers oldest first; newest first is the same list reversed (by the thread's first note). */
export function sortDiscussions(discussions: readonly DiscussionEntity[], direction: SortDirection): DiscussionEntity[] {
  // ISO 8601 times in one format order as plain strings: no localeCompare, which loads the browser's
  // locale data on first use (tens of ms) and is slower on thousands of threads
  const ordered = [...discussions].sort((a, b) => compareStrings(a.notes[0]?.created_at ?? '', b.notes[0]?.created_at ?? '') || (a.notes[0]?.id ?? 0) - (b.notes[0]?.id ?? 0));
  return direction === 'desc' ? ordered.reverse() : ordered;
}

/** GitLab's autosave key: `note/{type}/{id}`, with a suffix for an internal note. Replies and edits key on the discussion or note. */
export function autosaveKey(noteableType: string, noteableId: number | string, options: { internal?: boolean; discussionId?: string; noteId?: number } = {}): string {
  let key = `note/${noteableType}/${noteableId}`;
  if (options.discussionId) key += `/reply/${options.discussionId}`;
  if (options.noteId !== undefined) key += `/edit/${options.noteId}`;
  return options.internal ? `${key}/internal` : key;
}

/** Sort and filter are remembered per noteable type. */
export const sortStorageKey = (noteableType: string) => `notes/sort-direction/${noteableType}`;
export const filterStorageKey = (noteableType: string) => `notes/filter/${noteableType}`;

export function parseSort(value: string | null): SortDirection {
  return value === 'desc' ? 'desc' : 'asc';
}

export function parseFilter(value: string | null): NotesFilter {
  const number = Number(value);
  return number === FILTER_COMMENTS || number === FILTER_HISTORY ? number : FILTER_ALL;
}

/** The merge request's author wears 'Author' (GitLab's is_noteable_author). */
export function roleBadge(note: Pick<NoteEntity, 'author'>, noteableAuthorId: number | null | undefined): 'Author' | null {
  return note.author && noteableAuthorId !== null && noteableAuthorId !== undefined && note.author.id === noteableAuthorId ? 'Author' : null;
}

/** GitLab's human_access names (Gitlab::Access.human_access); levels without one show no badge. */
const ACCESS_NAMES: Record<number, string> = Object.fromEntries(
  [AccessLevel.Guest, AccessLevel.Planner, AccessLevel.Reporter, AccessLevel.Developer, AccessLevel.Maintainer, AccessLevel.Owner].map((level) => [level, ACCESS_LEVEL_NAMES[level]!]),
);

export type RoleBadge = 'Author' | 'Contributor' | 'Guest' | 'Planner' | 'Reporter' | 'Developer' | 'Maintainer' | 'Owner';

/**
 * The role badges, in GitLab's order: 'Author' for the merge request's author,
 * then the member's access level, or 'Contributor' for a non-member who has contributed.
 */
export function roleBadges(
  note: Pick<NoteEntity, 'author'>,
  noteableAuthorId: number | null | undefined,
  role: { access_level: number | null; contributor: boolean } | undefined,
): RoleBadge[] {
  const badges: RoleBadge[] = [];
  if (roleBadge(note, noteableAuthorId)) badges.push('Author');
  if (!note.author || !role) return badges;
  const access = role.access_level === null ? undefined : ACCESS_NAMES[role.access_level];
  if (access) badges.push(access as RoleBadge);
  else if (role.contributor) badges.push('Contributor');
  return badges;
}

export type SystemNoteIcon = 'commit' | 'merge' | 'close' | 'reopen' | 'branch' | 'pencil' | 'draft' | 'check' | 'comment' | 'info' | 'person';

/** The REST entity carries no system_note_metadata, so the icon follows GitLab's wording. */
export function systemNoteIcon(body: string): SystemNoteIcon {
  if (/^added \d+ commits?/.test(body)) return 'commit';
  if (/^merged/.test(body)) return 'merge';
  if (/^closed/.test(body)) return 'close';
  if (/^reopened/.test(body)) return 'reopen';
  if (/^changed target branch|branch/.test(body)) return 'branch';
  if (/^marked this merge request as \*\*(draft|ready)\*\*/.test(body)) return 'draft';
  if (/^changed title|^changed the description/.test(body)) return 'pencil';
  if (/^(assigned to|unassigned|requested review from|removed review request for) @/.test(body)) return 'person';
  if (/^(approved|resolved)/.test(body)) return 'check';
  if (/thread|discussion/.test(body)) return 'comment';
  return 'info';
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/** "added N commits\n\n<ul><li>…</li></ul>\n\n[Compare…](…)": the parts around the list, and its items as text. */
export function commitList(body: string): { before: string; items: string[]; after: string } | null {
  const match = /<ul>([\s\S]*?)<\/ul>/.exec(body);
  if (!match) return null;
  const items = [...match[1]!.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => unescape(item[1]!));
  return { before: body.slice(0, match.index).trim(), items, after: body.slice(match.index + match[0].length).trim() };
}

/** Up in an empty field edits the last note the user wrote. */
export function lastOwnNote(discussions: readonly DiscussionEntity[], userId: number): NoteEntity | null {
  let last: NoteEntity | null = null;
  for (const discussion of discussions) {
    for (const note of discussion.notes) {
      if (note.system || note.author?.id !== userId) continue;
      if (!last || note.created_at > last.created_at || (note.created_at === last.created_at && note.id > last.id)) last = note;
    }
  }
  return last;
}

export type ActivityFormKind = 'history-notice' | 'sign-in' | 'form' | 'none';

/**
 * What stands where the comment form goes: history only shows its notice;
 * a signed-out visitor the prompt 'Please register or sign in to reply.'; a user who may
 * comment the form; anyone else (a locked discussion, not a member) nothing.
 */
export function activityFormKind({ filter, signedIn, canReply }: { filter: NotesFilter; signedIn: boolean; canReply: boolean }): ActivityFormKind {
  if (filter === FILTER_HISTORY) return 'history-notice';
  if (!signedIn) return 'sign-in';
  return canReply ? 'form' : 'none';
}

/** The id from a `#note_123` location hash. */
export function noteIdFromHash(hash: string): number | null {
  const match = /^#note_(\d+)$/.exec(hash);
  return match ? Number(match[1]) : null;
}

/** The thread's resolution text, or null while it is open or not resolvable. */
export function resolutionText(discussion: DiscussionEntity, resolvedByPush = false): 'Resolved' | 'Automatically resolved' | null {
  const resolvable = discussion.notes.filter((note) => note.resolvable);
  if (resolvable.length === 0 || !resolvable.every((note) => note.resolved)) return null;
  return resolvedByPush ? 'Automatically resolved' : 'Resolved';
}

/** The avatars of the replies toggle: distinct repliers, at most REPLY_AVATARS. */
export function replyAuthors(discussion: DiscussionEntity): NonNullable<NoteEntity['author']>[] {
  const seen = new Map<number, NonNullable<NoteEntity['author']>>();
  for (const note of discussion.notes.slice(1)) if (note.author && !seen.has(note.author.id)) seen.set(note.author.id, note.author);
  return [...seen.values()].slice(0, REPLY_AVATARS);
}
