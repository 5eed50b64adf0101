/**
 * The rules of notes and threads that need no database: body validation with GitLab's
 * messages, edit conflicts, a thread's resolution state, and the keyset cursor of the
 * discussions list. Pure.
 */
import { t } from '@tributary/contracts';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import { isResolvable, MAX_NOTE_LENGTH, type Note } from './note.js';

/** An invalid note, with GitLab's full messages (`note.errors.full_messages`, what GraphQL payloads list). */
export class NoteValidationError extends ValidationError {
  constructor(
    message: string,
    readonly fullMessages: string[],
  ) {
    super(message);
  }
}

/** GitLab answers invalid notes with `bad_request!("Note #{note.errors.messages}")`. */
export function noteErrors(errors: Record<string, string[]>): NoteValidationError {
  const inspected = Object.entries(errors)
    .map(([field, messages]) => `:${field}=>[${messages.map((message) => JSON.stringify(message)).join(', ')}]`)
    .join(', ');
  const fullMessages = Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => `${field.charAt(0).toUpperCase()}${field.slice(1).replace(/_/g, ' ')} ${message}`));
  return new NoteValidationError(`400 Bad request - Note {${inspected}}`, fullMessages);
}

export function noteBodyError(body: string): ValidationError | null {
  if (body.trim() === '') return noteErrors({ note: ["can't be blank"] });
  if (body.length > MAX_NOTE_LENGTH) return noteErrors({ note: [`is too long (maximum is ${MAX_NOTE_LENGTH} characters)`] });
  return null;
}

/** The specification's conflict text (section 8), also the 409 message of a stale edit. */
export const EDIT_CONFLICT_MESSAGE = 'This comment changed after you started editing it. Review the updated comment to ensure information is not lost.';

/**
 * Optimistic locking: an edit that names the version it started from (`lock_version`) is
 * refused when the note has changed since. Tools that do not send it (GitLab's own API has
 * no such parameter) keep last-write-wins.
 */
export function staleEditError(current: number, sent: number | undefined): ConflictError | null {
  if (sent === undefined || sent === current) return null;
  return new ConflictError(t(EDIT_CONFLICT_MESSAGE));
}

export interface ThreadState {
  individual: boolean;
  resolvable: boolean;
  resolved: boolean;
  resolvedById: number | null;
  resolvedAt: Date | null;
}

/**
 * GitLab's Discussion: individual when its first note has no type; resolvable when any note
 * is; resolved when every resolvable note is, by whoever resolved the last of them.
 */
export function threadState(notes: readonly Note[]): ThreadState {
  const first = notes[0];
  const resolvable = notes.filter(isResolvable);
  const resolved = resolvable.length > 0 && resolvable.every((note) => note.resolved_at !== null);
  const last = resolved ? [...resolvable].sort((a, b) => a.resolved_at!.getTime() - b.resolved_at!.getTime()).at(-1)! : null;
  return {
    individual: first !== undefined && first.type === null,
    resolvable: resolvable.length > 0,
    resolved,
    resolvedById: last?.resolved_by_id ?? null,
    resolvedAt: last?.resolved_at ?? null,
  };
}

/**
 * Where a page of discussions ended: the last discussion's creation time, with PostgreSQL's
 * microseconds (a JavaScript Date would round them away and repeat or skip rows), and its
 * sequence number.
 */
export interface DiscussionCursor {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ` */
  createdAt: string;
  seq: number;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** An opaque cursor for `pagination=keyset` (GitLab's `cursor` parameter is opaque too). */
export function encodeCursor(cursor: DiscussionCursor): string {
  return Buffer.from(JSON.stringify({ c: cursor.createdAt, s: cursor.seq })).toString('base64url');
}

export function decodeCursor(text: string): DiscussionCursor {
  let parsed: { c?: unknown; s?: unknown } = {};
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (value !== null && typeof value === 'object') parsed = value as typeof parsed;
  } catch {
    // reported below
  }
  // The shape alone lets an impossible date through (month 13), which PostgreSQL would refuse with a 500.
  const validTime = typeof parsed.c === 'string' && CURSOR_TIME.test(parsed.c) && !Number.isNaN(Date.parse(parsed.c));
  if (!validTime || typeof parsed.s !== 'number' || !Number.isSafeInteger(parsed.s)) {
    throw new ValidationError('400 (Bad request) "cursor" is invalid');
  }
  return { createdAt: parsed.c as string, seq: parsed.s };
}
