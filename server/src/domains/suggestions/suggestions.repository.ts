/**
 * All SQL of suggestions. Rows hang on a note; the apply path reads a suggestion with its note,
 * the note's merge request and the note author in one query, and checks who may see them in
 * the service (suggestion ids are global, as GitLab's).
 */
import { on, type Queryable } from '../../platform/db/database.js';
import type { Note } from '../notes/note.js';
import type { NotePosition } from '../notes/position.js';

export interface Suggestion {
  id: number;
  note_id: number;
  relative_order: number;
  note_body_sha: string;
  lines_above: number;
  lines_below: number;
  from_content: string;
  to_content: string;
  applied: boolean;
  commit_id: string | null;
}

/** A suggestion with what applying it needs: its note, merge request and author. */
export interface SuggestionContext extends Suggestion {
  note_type: string | null;
  note_position: NotePosition | null;
  note_internal: boolean;
  discussion_id: string;
  note_author_id: number | null;
  author_name: string | null;
  author_email: string | null;
  merge_request_id: number;
  merge_request_iid: number;
  target_project_id: number;
  source_project_id: number | null;
  source_branch: string;
  merge_request_state: string;
}

export interface NewSuggestion {
  relativeOrder: number;
  linesAbove: number;
  linesBelow: number;
  fromContent: string;
  toContent: string;
}

const COLUMNS = 's.id, s.note_id, s.relative_order, s.note_body_sha, s.lines_above, s.lines_below, s.from_content, s.to_content, s.applied, s.commit_id';

export function createSuggestionsRepository(db: Queryable) {
  return {
    /** The rows of these notes, in fence order. */
    async forNotes(noteIds: readonly number[], tx?: Queryable): Promise<Suggestion[]> {
      if (noteIds.length === 0) return [];
      const { rows } = await on(db, tx).query<Suggestion>(`SELECT ${COLUMNS} FROM suggestions s WHERE s.note_id = ANY($1::bigint[]) ORDER BY s.note_id, s.relative_order`, [noteIds]);
      return rows;
    },

    /**
     * Replaces a note's rows with those of its current body (`bodySha`). Nothing is written when
     * the note's body changed meanwhile (its edit writes its own); the unique index makes two
     * writers of the same body write one set.
     */
    async replaceForBody(noteId: number, bodySha: string, rows: readonly NewSuggestion[], tx?: Queryable): Promise<void> {
      const q = on(db, tx);
      await q.query('DELETE FROM suggestions WHERE note_id = $1 AND note_body_sha <> $2', [noteId, bodySha]);
      for (const row of rows) {
        await q.query(
          `INSERT INTO suggestions (note_id, relative_order, note_body_sha, lines_above, lines_below, from_content, to_content)
           SELECT $1, $2, $3, $4, $5, $6, $7 FROM notes WHERE id = $1 AND encode(sha256(convert_to(body, 'UTF8')), 'hex') = $3
           ON CONFLICT (note_id, note_body_sha, relative_order) DO NOTHING`,
          [noteId, row.relativeOrder, bodySha, row.linesAbove, row.linesBelow, row.fromContent, row.toContent],
        );
      }
    },

    /** Text diff notes on a new-side line whose current body has no rows yet (the catch-up after an upgrade). */
    async notesWithoutRows(): Promise<Array<Pick<Note, 'id' | 'type' | 'system' | 'position' | 'body'> & { project_id: number }>> {
      const { rows } = await db.query<Pick<Note, 'id' | 'type' | 'system' | 'position' | 'body'> & { project_id: number }>(
        `SELECT n.id, n.type, n.system, n.position, n.body, n.project_id FROM notes n
          WHERE n.type = 'DiffNote' AND NOT n.system AND n.body LIKE '%suggestion%'
            AND NOT EXISTS (SELECT 1 FROM suggestions s WHERE s.note_id = n.id AND s.note_body_sha = encode(sha256(convert_to(n.body, 'UTF8')), 'hex'))
          ORDER BY n.id`,
      );
      return rows;
    },

    /** Suggestions by id with their note and merge request; ids that do not exist are missing from the answer. */
    async findWithContext(ids: readonly number[]): Promise<SuggestionContext[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.query<SuggestionContext>(
        `SELECT ${COLUMNS}, n.type AS note_type, n.position AS note_position, d.internal AS note_internal, n.discussion_id,
                n.author_id AS note_author_id, u.name AS author_name, u.email AS author_email,
                m.id AS merge_request_id, m.iid AS merge_request_iid, m.target_project_id, m.source_project_id, m.source_branch,
                m.state AS merge_request_state
           FROM suggestions s
           JOIN notes n ON n.id = s.note_id
           JOIN discussions d ON d.id = n.discussion_id
           JOIN merge_requests m ON m.id = n.merge_request_id
           LEFT JOIN users u ON u.id = n.author_id
          WHERE s.id = ANY($1::bigint[])
            -- rows of an older body are on their way out: they do not exist any more
            AND s.note_body_sha = encode(sha256(convert_to(n.body, 'UTF8')), 'hex')
          ORDER BY s.id`,
        [ids],
      );
      return rows;
    },

    /** Marks suggestions applied by `commitId`; returns how many were still unapplied. */
    async markApplied(ids: readonly number[], commitId: string, tx?: Queryable): Promise<number> {
      const { rows } = await on(db, tx).query<{ id: number }>(
        'UPDATE suggestions SET applied = true, commit_id = $2, updated_at = now() WHERE id = ANY($1::bigint[]) AND NOT applied RETURNING id',
        [ids, commitId],
      );
      return rows.length;
    },
  };
}

export type SuggestionsRepository = ReturnType<typeof createSuggestionsRepository>;
