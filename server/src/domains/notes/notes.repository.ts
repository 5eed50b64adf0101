/**
 * All SQL of notes and discussions. Every read names the merge request as well as the id
 * (`WHERE n.id = $2 AND n.merge_request_id = $1`), so an id from another merge request or
 * project finds nothing: the IDOR guard lives in the query, not in a later comparison.
 */
import { on, type Queryable } from '../../platform/db/database.js';
import type { User } from '../users/user.js';
import { usersByIds } from '../users/users.repository.js';
import type { Note, NoteType } from './note.js';
import type { DiscussionCursor } from './note-rules.js';
import type { NotePosition } from './position.js';

const NOTE_SELECT = `SELECT n.id, n.project_id, n.merge_request_id, n.discussion_id, n.type, n.author_id, n.body, n.system, n.system_action,
       n.position, n.original_position, n.line_code, n.commit_id, n.resolved_at, n.resolved_by_id, n.resolved_by_push,
       n.lock_version, n.last_edited_at, n.updated_by_id, n.created_at, n.updated_at, d.internal, d.outdated, d.change_position
  FROM notes n JOIN discussions d ON d.id = n.discussion_id`;

/** created_at as text with all six fractional digits, in UTC (the keyset cursor's half). */
const CREATED_TEXT = `to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Internal discussions only for readers who may see them (Reporter+). `$1` is the merge request. */
const visible = (includeInternal: boolean, alias = 'd') => (includeInternal ? 'true' : `NOT ${alias}.internal`);

export interface NewDiscussion {
  id: string;
  projectId: number;
  mergeRequestId: number;
  internal: boolean;
  /** system notes take the time of the event they report */
  createdAt?: Date;
}

export interface NewNote {
  projectId: number;
  mergeRequestId: number;
  discussionId: string;
  type: NoteType;
  authorId: number | null;
  body: string;
  system?: boolean;
  systemAction?: string | null;
  position?: NotePosition | null;
  /** a reply keeps its thread's original position (GitLab's DiffDiscussion#reply_attributes); default: position */
  originalPosition?: NotePosition | null;
  lineCode?: string | null;
  commitId?: string | null;
  /** a reply to a resolved thread is born resolved (GitLab's Notes::BuildService) */
  resolvedById?: number | null;
  createdAt?: Date;
}

export interface DiscussionPageRow {
  id: string;
  seq: number;
  /** microseconds kept, for the keyset cursor */
  created_at_text: string;
}

export type NoteOrder = { orderBy: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' };

export function createNotesRepository(db: Queryable) {
  return {
    async insertDiscussion(input: NewDiscussion, tx: Queryable): Promise<void> {
      await tx.query('INSERT INTO discussions (id, project_id, merge_request_id, internal, created_at) VALUES ($1, $2, $3, $4, coalesce($5, now()))', [
        input.id,
        input.projectId,
        input.mergeRequestId,
        input.internal,
        input.createdAt ?? null,
      ]);
    },

    async insertNote(input: NewNote, tx: Queryable): Promise<number> {
      const position = input.position ? JSON.stringify(input.position) : null;
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO notes (project_id, merge_request_id, discussion_id, type, author_id, body, system, system_action, position, original_position,
                            line_code, commit_id, resolved_at, resolved_by_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, coalesce($14::jsonb, $9::jsonb), $10, $11, CASE WHEN $12::bigint IS NULL THEN NULL ELSE now() END, $12,
                 coalesce($13, now()), coalesce($13, now()))
         RETURNING id`,
        [
          input.projectId,
          input.mergeRequestId,
          input.discussionId,
          input.type,
          input.authorId,
          input.body,
          input.system ?? false,
          input.systemAction ?? null,
          position,
          input.lineCode ?? null,
          input.commitId ?? null,
          input.resolvedById ?? null,
          input.createdAt ?? null,
          input.originalPosition ? JSON.stringify(input.originalPosition) : null,
        ],
      );
      return rows[0]!.id;
    },

    async findNote(mergeRequestId: number, noteId: number, tx?: Queryable): Promise<Note | undefined> {
      const { rows } = await on(db, tx).query<Note>(`${NOTE_SELECT} WHERE n.merge_request_id = $1 AND n.id = $2`, [mergeRequestId, noteId]);
      return rows[0];
    },

    /** Locks the note row until the transaction ends (edits compare lock_version under it). */
    async lockNote(mergeRequestId: number, noteId: number, tx: Queryable): Promise<Note | undefined> {
      const { rows } = await tx.query<Note>(`${NOTE_SELECT} WHERE n.merge_request_id = $1 AND n.id = $2 FOR UPDATE OF n`, [mergeRequestId, noteId]);
      return rows[0];
    },

    async findDiscussion(mergeRequestId: number, discussionId: string, tx?: Queryable): Promise<{ id: string; internal: boolean } | undefined> {
      const { rows } = await on(db, tx).query<{ id: string; internal: boolean }>('SELECT id, internal FROM discussions WHERE merge_request_id = $1 AND id = $2', [mergeRequestId, discussionId]);
      return rows[0];
    },

    /** The merge request a note belongs to, for callers that name a note alone (GraphQL's global ids). */
    async mergeRequestOfNote(noteId: number): Promise<number | undefined> {
      const { rows } = await db.query<{ merge_request_id: number }>('SELECT merge_request_id FROM notes WHERE id = $1', [noteId]);
      return rows[0] ? Number(rows[0].merge_request_id) : undefined;
    },

    /** The merge request a discussion belongs to, for callers that name a discussion alone. */
    async mergeRequestOfDiscussion(discussionId: string): Promise<number | undefined> {
      const { rows } = await db.query<{ merge_request_id: number }>('SELECT merge_request_id FROM discussions WHERE id = $1', [discussionId]);
      return rows[0] ? Number(rows[0].merge_request_id) : undefined;
    },

    /** Locks a discussion (replies, resolutions and deletions of one thread take turns). */
    async lockDiscussion(mergeRequestId: number, discussionId: string, tx: Queryable): Promise<{ id: string; internal: boolean } | undefined> {
      const { rows } = await tx.query<{ id: string; internal: boolean }>('SELECT id, internal FROM discussions WHERE merge_request_id = $1 AND id = $2 FOR UPDATE', [mergeRequestId, discussionId]);
      return rows[0];
    },

    /** The notes of some discussions of one merge request, oldest first. */
    async notesOfDiscussions(mergeRequestId: number, discussionIds: readonly string[], tx?: Queryable): Promise<Note[]> {
      if (discussionIds.length === 0) return [];
      const { rows } = await on(db, tx).query<Note>(`${NOTE_SELECT} WHERE n.merge_request_id = $1 AND n.discussion_id = ANY($2::text[]) ORDER BY n.created_at, n.id`, [
        mergeRequestId,
        discussionIds,
      ]);
      return rows;
    },

    /** The first note of each of some discussions of one merge request (one query, whatever their number). */
    async firstNotesOfDiscussions(mergeRequestId: number, discussionIds: readonly string[]): Promise<Note[]> {
      if (discussionIds.length === 0) return [];
      const { rows } = await db.query<Note>(
        `SELECT DISTINCT ON (first.discussion_id) * FROM (${NOTE_SELECT} WHERE n.merge_request_id = $1 AND n.discussion_id = ANY($2::text[])) AS first
          ORDER BY first.discussion_id, first.created_at, first.id`,
        [mergeRequestId, discussionIds],
      );
      return rows;
    },

    async listNotes(mergeRequestId: number, options: NoteOrder & { includeInternal: boolean; limit: number; offset: number }): Promise<{ notes: Note[]; total: number }> {
      // order_by and sort come from fixed lists (routes/notes/input.ts), never from raw input
      const direction = options.sort === 'asc' ? 'ASC' : 'DESC';
      const column = options.orderBy === 'updated_at' ? 'n.updated_at' : 'n.created_at';
      const where = `n.merge_request_id = $1 AND ${visible(options.includeInternal)}`;
      const [page, count] = await Promise.all([
        db.query<Note>(`${NOTE_SELECT} WHERE ${where} ORDER BY ${column} ${direction}, n.id ${direction} LIMIT $2 OFFSET $3`, [mergeRequestId, options.limit, options.offset]),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM notes n JOIN discussions d ON d.id = n.discussion_id WHERE ${where}`, [mergeRequestId]),
      ]);
      return { notes: page.rows, total: count.rows[0]!.count };
    },

    /** A page of discussion ids in GitLab's order (first note's creation), by offset. */
    async discussionPage(mergeRequestId: number, options: { includeInternal: boolean; limit: number; offset: number }): Promise<{ rows: DiscussionPageRow[]; total: number }> {
      const where = `d.merge_request_id = $1 AND ${visible(options.includeInternal)}`;
      const [page, count] = await Promise.all([
        db.query<DiscussionPageRow>(`SELECT d.id, d.seq, ${CREATED_TEXT} AS created_at_text FROM discussions d WHERE ${where} ORDER BY d.created_at, d.seq LIMIT $2 OFFSET $3`, [
          mergeRequestId,
          options.limit,
          options.offset,
        ]),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM discussions d WHERE ${where}`, [mergeRequestId]),
      ]);
      return { rows: page.rows, total: count.rows[0]!.count };
    },

    /** A page of discussion ids after a keyset cursor: no count, one index range scan. */
    async discussionsAfter(mergeRequestId: number, options: { includeInternal: boolean; limit: number; after: DiscussionCursor | null }): Promise<DiscussionPageRow[]> {
      const after = options.after ? 'AND (d.created_at, d.seq) > ($3::timestamptz, $4::bigint)' : '';
      const params: unknown[] = [mergeRequestId, options.limit];
      if (options.after) params.push(options.after.createdAt, options.after.seq);
      const { rows } = await db.query<DiscussionPageRow>(
        `SELECT d.id, d.seq, ${CREATED_TEXT} AS created_at_text FROM discussions d
          WHERE d.merge_request_id = $1 AND ${visible(options.includeInternal)} ${after}
          ORDER BY d.created_at, d.seq LIMIT $2`,
        params,
      );
      return rows;
    },

    /** Sets a new body; the version moves on so that editors who started earlier get a 409. */
    async updateBody(noteId: number, body: string, userId: number, tx: Queryable): Promise<void> {
      await tx.query(
        'UPDATE notes SET body = $2, lock_version = lock_version + 1, last_edited_at = now(), updated_by_id = $3, updated_at = now() WHERE id = $1',
        [noteId, body, userId],
      );
    },

    /** Resolves or unresolves the given resolvable notes of one merge request; notes already so keep who and when. */
    async setResolved(mergeRequestId: number, noteIds: readonly number[], resolvedById: number | null, tx: Queryable): Promise<void> {
      if (noteIds.length === 0) return;
      await tx.query(
        `UPDATE notes SET resolved_at = CASE WHEN $3::bigint IS NULL THEN NULL ELSE now() END, resolved_by_id = $3, resolved_by_push = false,
                updated_at = now()
          WHERE merge_request_id = $1 AND id = ANY($2::bigint[]) AND type IS NOT NULL AND NOT system
            AND (resolved_at IS NULL) = ($3::bigint IS NOT NULL)`,
        [mergeRequestId, noteIds, resolvedById],
      );
    },

    /** An individual note becomes a thread when someone replies (IndividualNoteDiscussion#convert_to_discussion!). */
    async convertToThread(discussionId: string, tx: Queryable): Promise<void> {
      await tx.query(`UPDATE notes SET type = 'DiscussionNote' WHERE discussion_id = $1 AND type IS NULL AND NOT system`, [discussionId]);
    },

    /** Deletes a note, and its discussion when it was the last note. */
    async deleteNote(mergeRequestId: number, noteId: number, tx: Queryable): Promise<void> {
      const { rows } = await tx.query<{ discussion_id: string }>('DELETE FROM notes WHERE merge_request_id = $1 AND id = $2 RETURNING discussion_id', [mergeRequestId, noteId]);
      if (rows[0]) await tx.query('DELETE FROM discussions d WHERE d.id = $1 AND NOT EXISTS (SELECT 1 FROM notes n WHERE n.discussion_id = d.id)', [rows[0].discussion_id]);
    },

    /**
     * Unresolved threads per merge request (DISCUSSIONS_NOT_RESOLVED and the widget's counter).
     * Internal threads count too: they block a merge whoever looks.
     */
    async unresolvedThreadCounts(mergeRequestIds: readonly number[]): Promise<Map<number, number>> {
      const result = new Map<number, number>(mergeRequestIds.map((id) => [id, 0]));
      if (mergeRequestIds.length === 0) return result;
      const { rows } = await db.query<{ merge_request_id: number; count: number }>(
        `SELECT merge_request_id, count(DISTINCT discussion_id)::int AS count FROM notes
          WHERE merge_request_id = ANY($1::bigint[]) AND type IS NOT NULL AND NOT system AND resolved_at IS NULL
          GROUP BY merge_request_id`,
        [mergeRequestIds],
      );
      for (const row of rows) result.set(row.merge_request_id, row.count);
      return result;
    },

    /** GitLab's user_notes_count: comments, not system notes; internal ones only for readers who may see them. */
    async userNotesCounts(mergeRequestIds: readonly number[], options: { includeInternal: boolean }): Promise<Map<number, number>> {
      const result = new Map<number, number>(mergeRequestIds.map((id) => [id, 0]));
      if (mergeRequestIds.length === 0) return result;
      const { rows } = await db.query<{ merge_request_id: number; count: number }>(
        `SELECT n.merge_request_id, count(*)::int AS count FROM notes n JOIN discussions d ON d.id = n.discussion_id
          WHERE n.merge_request_id = ANY($1::bigint[]) AND NOT n.system AND ${visible(options.includeInternal)}
          GROUP BY n.merge_request_id`,
        [mergeRequestIds],
      );
      for (const row of rows) result.set(row.merge_request_id, row.count);
      return result;
    },

    usersByIds: (ids: Iterable<number | null>): Promise<Map<number, User>> => usersByIds(db, ids),
  };
}


export type NotesRepository = ReturnType<typeof createNotesRepository>;
