/**
 * GitLab's entities for notes, discussions, draft notes and award emoji (lib/api/entities/
 * note.rb, discussion.rb, draft_note.rb, award_emoji.rb), field for field and in their order.
 * REST notes carry `body` only; rendered HTML is the web app's business (POST /markdown).
 */
import type { Discussion, DraftNote, AwardEmoji, Note, Noteable } from '../../../domains/notes/note.js';
import { isResolvable } from '../../../domains/notes/note.js';
import { threadState } from '../../../domains/notes/note-rules.js';
import { positionForApi } from '../../../domains/notes/position.js';
import type { NoteAction } from '../../../auth/permissions.js';
import type { User } from '../../../domains/users/user.js';
import type { SuggestionView } from '../../../domains/suggestions/suggestions.service.js';
import { suggestionEntity } from './suggestions.js';
import { userBasic, type UrlBuilder } from './users.js';

export interface NoteRenderContext {
  noteable: Noteable;
  users: Map<number, User>;
  urls: UrlBuilder;
  /** suggested changes of diff notes, by note id */
  suggestions?: Map<number, SuggestionView[]>;
  /** what the reader may do to a note (auth/permissions.ts noteAbilities) */
  abilities?: (note: Note) => ReadonlySet<NoteAction>;
}

const userOf = (ctx: NoteRenderContext, id: number | null) => {
  const user = id === null ? undefined : ctx.users.get(id);
  return user ? userBasic(user, ctx.urls) : null;
};

/**
 * Where a diff note stands after pushes (GitLab's web NoteEntity and DiscussionEntity fields):
 * `original_position` (where it was written, never moves), `active` (false once a push changed
 * its line: the thread is outdated and `position` stays on the old version), and for outdated
 * threads `outdated_line_change_path`, the web endpoint with the lines that changed.
 */
function diffNoteState(note: Note, ctx: NoteRenderContext) {
  const outdated = note.outdated === true;
  return {
    original_position: positionForApi(note.original_position ?? note.position!),
    active: !outdated,
    outdated_line_change_path: outdated && ctx.noteable.projectPath ? `/${ctx.noteable.projectPath}/notes/${note.id}/outdated_line_change` : null,
  };
}

/**
 * GitLab's web NoteEntity `current_user`: what the reader may do to this note, so that the
 * page offers only those actions (the rule itself is noteAbilities in auth/permissions.ts).
 */
export function noteCurrentUser(abilities: ReadonlySet<NoteAction>) {
  return {
    can_edit: abilities.has('update_note'),
    can_delete: abilities.has('delete_note'),
    can_award_emoji: abilities.has('award_emoji'),
    can_resolve_discussion: abilities.has('resolve_note'),
  };
}

export function noteEntity(note: Note, ctx: NoteRenderContext) {
  const entity: Record<string, unknown> = {
    id: note.id,
    type: note.type,
    body: note.body,
    attachment: null,
    author: userOf(ctx, note.author_id),
    created_at: note.created_at.toISOString(),
    updated_at: note.updated_at.toISOString(),
    system: note.system,
    noteable_id: ctx.noteable.mergeRequestId,
    noteable_type: 'MergeRequest',
    project_id: note.project_id,
  };
  const diffNote = note.type === 'DiffNote' && note.position !== null;
  if (diffNote) Object.assign(entity, { commit_id: note.commit_id, position: positionForApi(note.position!) });
  const resolvable = isResolvable(note);
  entity.resolvable = resolvable;
  if (resolvable) {
    Object.assign(entity, { resolved: note.resolved_at !== null, resolved_by: userOf(ctx, note.resolved_by_id), resolved_at: note.resolved_at?.toISOString() ?? null, resolved_by_push: note.resolved_by_push });
  }
  if (diffNote) entity.suggestions = (ctx.suggestions?.get(note.id) ?? []).map(suggestionEntity);
  if (diffNote) Object.assign(entity, diffNoteState(note, ctx));
  return Object.assign(entity, {
    confidential: note.internal,
    internal: note.internal,
    imported: false,
    imported_from: 'none',
    noteable_iid: ctx.noteable.mergeRequestIid,
    commands_changes: {},
    // ours: the version an editor started from; PUT with a stale one answers 409
    lock_version: note.lock_version,
    // GitLab's web note entity: who last edited the body and when ('Edited … by …'); null if never
    last_edited_at: note.last_edited_at?.toISOString() ?? null,
    last_edited_by: note.last_edited_at ? userOf(ctx, note.updated_by_id) : null,
    ...(ctx.abilities ? { current_user: noteCurrentUser(ctx.abilities(note)) } : {}),
  });
}

export function discussionEntity(discussion: Discussion, ctx: NoteRenderContext) {
  return {
    id: discussion.id,
    individual_note: threadState(discussion.notes).individual,
    notes: discussion.notes.map((note) => noteEntity(note, ctx)),
  };
}

export function draftNoteEntity(draft: DraftNote) {
  return {
    id: draft.id,
    author_id: draft.author_id,
    merge_request_id: draft.merge_request_id,
    resolve_discussion: draft.resolve_discussion,
    discussion_id: draft.discussion_id,
    note: draft.note,
    commit_id: draft.commit_id,
    line_code: draft.line_code,
    // GitLab presents `note.position.to_h`, which is {} for a draft without a position
    position: draft.position ? positionForApi(draft.position) : {},
  };
}

export function awardEmojiEntity(award: AwardEmoji, ctx: { users: Map<number, User>; urls: UrlBuilder }) {
  const user = ctx.users.get(award.user_id);
  return {
    id: award.id,
    name: award.name,
    user: user ? userBasic(user, ctx.urls) : null,
    created_at: award.created_at.toISOString(),
    updated_at: award.updated_at.toISOString(),
    awardable_id: award.note_id ?? award.merge_request_id,
    awardable_type: award.note_id === null ? 'MergeRequest' : 'Note',
    url: null,
  };
}
