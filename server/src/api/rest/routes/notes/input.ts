/**
 * The declared parameters of the notes, discussions, draft notes and award emoji routes, with
 * GitLab's names and defaults (lib/api/notes.rb, discussions.rb, draft_notes.rb, award_emoji.rb),
 * and the pure mappings from them to the service inputs. A diff `position`'s fields and their
 * rules belong to the notes domain's position parser, which every surface shares.
 */
import type { DiscussionPage } from '../../../../domains/notes/discussions.service.js';
import { decodeCursor } from '../../../../domains/notes/note-rules.js';
import type { NoteOrder } from '../../../../domains/notes/notes.repository.js';
import { parsePosition, type NotePosition } from '../../../../domains/notes/position.js';
import { ValidationError } from '../../../../platform/errors.js';
import { parsePage } from '../../pagination.js';
import { Any, BlankableStr, Bool, Enum, Input, Int, Optional, Pagination, PathId, Str, Text, type Static } from '../../input/route-kit.js';
import { MergeRequestPath } from '../merge-requests/input.js';

export const NoteId = PathId('Note');
export const DraftNoteId = PathId('Draft Note');
export const AwardId = PathId('Award Emoji');
export const DiscussionPath = { ...MergeRequestPath, discussion_id: Str() };

export const NoteList = Input({ ...MergeRequestPath, ...Pagination, order_by: Optional(Enum(['created_at', 'updated_at'] as const)), sort: Optional(Enum(['asc', 'desc'] as const)) });

/** GitLab's notes list: newest first by creation unless asked otherwise. */
export function noteOrder(params: { order_by?: 'created_at' | 'updated_at'; sort?: 'asc' | 'desc' }): NoteOrder {
  return { orderBy: params.order_by ?? 'created_at', sort: params.sort ?? 'desc' };
}

/** `internal` (GitLab 15.x+) or its old name `confidential`. */
const Internal = { internal: Optional(Bool()), confidential: Optional(Bool()) };
const internal = (params: { internal?: boolean; confidential?: boolean }) => params.internal ?? params.confidential ?? false;

/** The body as sent: a missing one is GitLab's "body is missing"; a blank one the note validation's business. */
export const NoteCreate = Input({ ...MergeRequestPath, body: BlankableStr(), ...Internal, created_at: Optional(Str()) });
export const noteCreateInput = (params: Static<typeof NoteCreate>) => ({ body: params.body, internal: internal(params) });

export const NoteUpdate = Input({ ...MergeRequestPath, note_id: NoteId, body: BlankableStr(), lock_version: Optional(Int()) });
export const noteUpdateInput = (params: { body: string; lock_version?: number }) => (params.lock_version === undefined ? { body: params.body } : { body: params.body, lockVersion: params.lock_version });

/** PUT …/discussions/:id/notes/:note_id takes exactly one of `body` and `resolved` (Grape's exactly_one_of). */
export const DiscussionNoteUpdate = Input({ ...DiscussionPath, note_id: NoteId, body: Optional(BlankableStr()), resolved: Optional(Bool()), lock_version: Optional(Int()) });
export function discussionNoteChange(params: Static<typeof DiscussionNoteUpdate>): { kind: 'body'; body: string; lockVersion?: number } | { kind: 'resolved'; resolved: boolean } {
  if (params.body !== undefined && params.resolved !== undefined) throw new ValidationError('400 (Bad request) body, resolved are mutually exclusive');
  if (params.resolved !== undefined) return { kind: 'resolved', resolved: params.resolved };
  if (params.body === undefined) throw new ValidationError('400 (Bad request) body, resolved are missing, exactly one parameter must be provided');
  return { kind: 'body', ...noteUpdateInput({ body: params.body, lock_version: params.lock_version }) };
}

/**
 * Offset pages (page, per_page) as everywhere, or keyset pages (`pagination=keyset`, then the
 * opaque `cursor` of the Link header's next URL) for merge requests with many threads.
 */
export const DiscussionList = Input({ ...MergeRequestPath, ...Pagination, pagination: Optional(Text()), cursor: Optional(Text()) });
export function discussionPage(params: Static<typeof DiscussionList>): DiscussionPage {
  const page = parsePage(params);
  if (params.pagination !== 'keyset') return { kind: 'offset', limit: page.limit, offset: page.offset };
  return { kind: 'keyset', limit: page.perPage, after: params.cursor ? decodeCursor(params.cursor) : null };
}

/** A diff position: `position[base_sha]=…` (multipart or query) or a JSON object, read by the notes domain. */
const Position = () => Optional(Any({ description: 'diff position: base_sha, start_sha, head_sha, position_type, old_path, new_path, old_line, new_line, line_range' }));
const position = (value: unknown): NotePosition | undefined => (value === undefined || value === null || value === '' ? undefined : parsePosition(value));

export const DiscussionCreate = Input({ ...MergeRequestPath, body: BlankableStr(), ...Internal, position: Position(), commit_id: Optional(Text()), created_at: Optional(Str()) });
export function discussionCreateInput(params: Static<typeof DiscussionCreate>): { body: string; internal: boolean; position?: NotePosition; commitId?: string } {
  const at = position(params.position);
  return { body: params.body, internal: internal(params), ...(at ? { position: at } : {}), ...(params.commit_id ? { commitId: params.commit_id } : {}) };
}

export const DraftCreate = Input({
  ...MergeRequestPath,
  note: Str(),
  resolve_discussion: Optional(Bool()),
  ...Internal,
  commit_id: Optional(Text()),
  in_reply_to_discussion_id: Optional(Text()),
  position: Position(),
});
export function draftCreateInput(params: Static<typeof DraftCreate>) {
  const at = position(params.position);
  return {
    note: params.note,
    resolveDiscussion: params.resolve_discussion ?? false,
    internal: internal(params),
    // gitbeaker and the web app may send the string 'undefined' (GitLab ignores it too)
    ...(params.commit_id && params.commit_id !== 'undefined' ? { commitId: params.commit_id } : {}),
    ...(params.in_reply_to_discussion_id ? { inReplyToDiscussionId: params.in_reply_to_discussion_id } : {}),
    ...(at ? { position: at } : {}),
  };
}

export const DraftUpdate = Input({ ...MergeRequestPath, draft_note_id: DraftNoteId, note: Optional(Str()), position: Position() });
export function draftUpdateInput(params: Static<typeof DraftUpdate>): { note?: string; position?: NotePosition } {
  const at = position(params.position);
  return { ...(params.note !== undefined ? { note: params.note } : {}), ...(at ? { position: at } : {}) };
}
