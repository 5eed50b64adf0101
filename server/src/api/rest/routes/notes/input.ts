/**
 * Parameters of the notes, discussions, draft notes and award emoji routes, with GitLab's
 * names and defaults (lib/api/notes.rb, discussions.rb, draft_notes.rb, award_emoji.rb). Pure.
 */
import type { DiscussionPage } from '../../../../domains/notes/discussions.service.js';
import { decodeCursor } from '../../../../domains/notes/note-rules.js';
import type { NoteOrder } from '../../../../domains/notes/notes.repository.js';
import { parsePosition, type NotePosition } from '../../../../domains/notes/position.js';
import { ValidationError } from '../../../../platform/errors.js';
import { parsePage } from '../../pagination.js';
import { oneOf, optionalBool, optionalInt, optionalString, requiredString, type Params } from '../../params.js';

/** A path id that is not a positive integer names nothing: the lookups answer 404. */
export function parseId(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

/** GitLab's notes list: newest first by creation unless asked otherwise. */
export function parseNoteOrder(params: Params): NoteOrder {
  return { orderBy: oneOf(params, 'order_by', ['created_at', 'updated_at'] as const, 'created_at'), sort: oneOf(params, 'sort', ['asc', 'desc'] as const, 'desc') };
}

/** `internal` (GitLab 15.x+) or its old name `confidential`. */
function parseInternal(params: Params): boolean {
  return optionalBool(params, 'internal') ?? optionalBool(params, 'confidential') ?? false;
}

/** The body as sent: a missing one is GitLab's "not given"; a blank one the note validation's business. */
function body(params: Params, key = 'body'): string {
  const value = optionalString(params, key);
  if (value === undefined) throw ValidationError.missing(key);
  return value;
}

export function parseCreateNote(params: Params): { body: string; internal: boolean } {
  return { body: body(params), internal: parseInternal(params) };
}

export function parseUpdateNote(params: Params): { body: string; lockVersion?: number } {
  const lockVersion = optionalInt(params, 'lock_version');
  return lockVersion === undefined ? { body: body(params) } : { body: body(params), lockVersion };
}

/** PUT …/discussions/:id/notes/:note_id takes exactly one of `body` and `resolved` (Grape's exactly_one_of). */
export function parseDiscussionNoteUpdate(params: Params): { kind: 'body'; body: string; lockVersion?: number } | { kind: 'resolved'; resolved: boolean } {
  const hasBody = params.body !== undefined;
  const resolved = optionalBool(params, 'resolved');
  if (hasBody && resolved !== undefined) throw new ValidationError('400 (Bad request) body, resolved are mutually exclusive');
  if (resolved !== undefined) return { kind: 'resolved', resolved };
  if (!hasBody) throw new ValidationError('400 (Bad request) body, resolved are missing, exactly one parameter must be provided');
  return { kind: 'body', ...parseUpdateNote(params) };
}

export function parseResolved(params: Params): boolean {
  const resolved = optionalBool(params, 'resolved');
  if (resolved === undefined) throw ValidationError.missing('resolved');
  return resolved;
}

/**
 * Offset pages (page, per_page) as everywhere, or keyset pages (`pagination=keyset`, then the
 * opaque `cursor` of the Link header's next URL) for merge requests with many threads.
 */
export function parseDiscussionPage(params: Params): DiscussionPage {
  const page = parsePage(params);
  if (optionalString(params, 'pagination') !== 'keyset') return { kind: 'offset', limit: page.limit, offset: page.offset };
  const cursor = optionalString(params, 'cursor');
  return { kind: 'keyset', limit: page.perPage, after: cursor ? decodeCursor(cursor) : null };
}

function optionalPosition(params: Params): NotePosition | undefined {
  const value = params.position;
  return value === undefined || value === null || value === '' ? undefined : parsePosition(value);
}

export function parseCreateDiscussion(params: Params): { body: string; internal: boolean; position?: NotePosition; commitId?: string } {
  const commitId = optionalString(params, 'commit_id');
  const position = optionalPosition(params);
  return { body: body(params), internal: parseInternal(params), ...(position ? { position } : {}), ...(commitId ? { commitId } : {}) };
}

export function parseCreateDraft(params: Params) {
  const commitId = optionalString(params, 'commit_id');
  const reply = optionalString(params, 'in_reply_to_discussion_id');
  const position = optionalPosition(params);
  return {
    note: requiredString(params, 'note'),
    resolveDiscussion: optionalBool(params, 'resolve_discussion') ?? false,
    internal: parseInternal(params),
    // gitbeaker and the web app may send the string 'undefined' (GitLab ignores it too)
    ...(commitId && commitId !== 'undefined' ? { commitId } : {}),
    ...(reply ? { inReplyToDiscussionId: reply } : {}),
    ...(position ? { position } : {}),
  };
}

export function parseUpdateDraft(params: Params): { note?: string; position?: NotePosition } {
  const note = optionalString(params, 'note');
  const position = optionalPosition(params);
  return { ...(note !== undefined ? { note } : {}), ...(position ? { position } : {}) };
}
