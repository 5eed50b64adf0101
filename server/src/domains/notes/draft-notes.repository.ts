/**
 * SQL of draft notes. Every query names the merge request *and* the author: a draft is its
 * author's alone, so another user's draft id (an administrator's included) finds nothing.
 */
import { on, type Queryable } from '../../platform/db/database.js';
import type { DraftNote } from './note.js';
import type { NotePosition } from './position.js';

const COLUMNS = 'id, merge_request_id, author_id, note, discussion_id, resolve_discussion, internal, commit_id, line_code, position, created_at, updated_at';

export interface NewDraftNote {
  mergeRequestId: number;
  authorId: number;
  note: string;
  discussionId: string | null;
  resolveDiscussion: boolean;
  internal: boolean;
  commitId: string | null;
  lineCode: string | null;
  position: NotePosition | null;
}

export function createDraftNotesRepository(db: Queryable) {
  return {
    async insert(input: NewDraftNote): Promise<number> {
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO draft_notes (merge_request_id, author_id, note, discussion_id, resolve_discussion, internal, commit_id, line_code, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb) RETURNING id`,
        [
          input.mergeRequestId,
          input.authorId,
          input.note,
          input.discussionId,
          input.resolveDiscussion,
          input.internal,
          input.commitId,
          input.lineCode,
          input.position ? JSON.stringify(input.position) : null,
        ],
      );
      return rows[0]!.id;
    },
    async find(mergeRequestId: number, authorId: number, id: number, tx?: Queryable): Promise<DraftNote | undefined> {
      const { rows } = await on(db, tx).query<DraftNote>(`SELECT ${COLUMNS} FROM draft_notes WHERE merge_request_id = $1 AND author_id = $2 AND id = $3`, [mergeRequestId, authorId, id]);
      return rows[0];
    },
    async list(mergeRequestId: number, authorId: number, tx?: Queryable): Promise<DraftNote[]> {
      const { rows } = await on(db, tx).query<DraftNote>(`SELECT ${COLUMNS} FROM draft_notes WHERE merge_request_id = $1 AND author_id = $2 ORDER BY id`, [mergeRequestId, authorId]);
      return rows;
    },
    /** A new text, and a new position when one is given (null keeps the old one). */
    async update(mergeRequestId: number, authorId: number, id: number, change: { note: string; position: NotePosition | null; lineCode: string | null }): Promise<void> {
      await db.query(
        `UPDATE draft_notes SET note = $4, position = coalesce($5::jsonb, position), line_code = CASE WHEN $5::jsonb IS NULL THEN line_code ELSE $6 END, updated_at = now()
          WHERE merge_request_id = $1 AND author_id = $2 AND id = $3`,
        [mergeRequestId, authorId, id, change.note, change.position ? JSON.stringify(change.position) : null, change.lineCode],
      );
    },
    async remove(mergeRequestId: number, authorId: number, ids: readonly number[], tx?: Queryable): Promise<void> {
      await on(db, tx).query('DELETE FROM draft_notes WHERE merge_request_id = $1 AND author_id = $2 AND id = ANY($3::bigint[])', [mergeRequestId, authorId, ids]);
    },
  };
}

export type DraftNotesRepository = ReturnType<typeof createDraftNotesRepository>;
