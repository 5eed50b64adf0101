/**
 * SQL of award emoji. An award is looked up by its id *and* its awardable (the merge request,
 * and the note when there is one), so an award id of another note or merge request finds nothing.
 */
import { isUniqueViolation, type Queryable } from '../../platform/db/database.js';
import type { AwardEmoji } from './note.js';

const COLUMNS = 'id, name, user_id, merge_request_id, note_id, created_at, updated_at';

/** The merge request itself (noteId null) or one of its notes. */
export interface Awardable {
  mergeRequestId: number;
  noteId: number | null;
}

export function createAwardEmojiRepository(db: Queryable) {
  return {
    async list(awardable: Awardable, page: { limit: number; offset: number }): Promise<{ awards: AwardEmoji[]; total: number }> {
      const where = 'merge_request_id = $1 AND note_id IS NOT DISTINCT FROM $2::bigint';
      const params = [awardable.mergeRequestId, awardable.noteId];
      const [rows, count] = await Promise.all([
        db.query<AwardEmoji>(`SELECT ${COLUMNS} FROM award_emoji WHERE ${where} ORDER BY id LIMIT ${page.limit} OFFSET ${page.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count FROM award_emoji WHERE ${where}`, params),
      ]);
      return { awards: rows.rows, total: count.rows[0]!.count };
    },
    /**
     * Every award on the notes of one merge request, in one list (ours, not GitLab's: its web app
     * gets them inside each note), so a page of threads needs no request per note. Awards on
     * internal notes are left out unless the caller reads internal notes.
     */
    async listOfNotes(mergeRequestId: number, options: { includeInternal: boolean; limit: number; offset: number }): Promise<{ awards: AwardEmoji[]; total: number }> {
      // internal is the thread's: replies inherit it (migration 0005)
      const from = `FROM award_emoji a JOIN notes n ON n.id = a.note_id JOIN discussions d ON d.id = n.discussion_id
        WHERE a.merge_request_id = $1 AND a.note_id IS NOT NULL AND ($2::boolean OR NOT d.internal)`;
      const params = [mergeRequestId, options.includeInternal];
      const [rows, count] = await Promise.all([
        db.query<AwardEmoji>(`SELECT ${COLUMNS.split(', ').map((column) => `a.${column}`).join(', ')} ${from} ORDER BY a.id LIMIT ${options.limit} OFFSET ${options.offset}`, params),
        db.query<{ count: number }>(`SELECT count(*)::int AS count ${from}`, params),
      ]);
      return { awards: rows.rows, total: count.rows[0]!.count };
    },
    async find(awardable: Awardable, id: number): Promise<AwardEmoji | undefined> {
      const { rows } = await db.query<AwardEmoji>(`SELECT ${COLUMNS} FROM award_emoji WHERE merge_request_id = $1 AND note_id IS NOT DISTINCT FROM $2::bigint AND id = $3`, [
        awardable.mergeRequestId,
        awardable.noteId,
        id,
      ]);
      return rows[0];
    },
    /** The user's award of this name here, if any (what a toggle removes). */
    async findOwn(awardable: Awardable, userId: number, name: string): Promise<AwardEmoji | undefined> {
      const { rows } = await db.query<AwardEmoji>(`SELECT ${COLUMNS} FROM award_emoji WHERE merge_request_id = $1 AND note_id IS NOT DISTINCT FROM $2::bigint AND user_id = $3 AND name = $4`, [
        awardable.mergeRequestId,
        awardable.noteId,
        userId,
        name,
      ]);
      return rows[0];
    },
    /** The new award's id, or null when the user already awarded this name here (the unique index decides). */
    async insert(awardable: Awardable, userId: number, name: string): Promise<number | null> {
      try {
        const { rows } = await db.query<{ id: number }>('INSERT INTO award_emoji (name, user_id, merge_request_id, note_id) VALUES ($1, $2, $3, $4) RETURNING id', [
          name,
          userId,
          awardable.mergeRequestId,
          awardable.noteId,
        ]);
        return rows[0]!.id;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    async remove(awardable: Awardable, id: number): Promise<void> {
      await db.query('DELETE FROM award_emoji WHERE merge_request_id = $1 AND note_id IS NOT DISTINCT FROM $2::bigint AND id = $3', [awardable.mergeRequestId, awardable.noteId, id]);
    },
    /** GitLab's upvotes and downvotes of merge requests: thumbsup and thumbsdown on the request itself. */
    async votes(mergeRequestIds: readonly number[]): Promise<Map<number, { upvotes: number; downvotes: number }>> {
      const result = new Map(mergeRequestIds.map((id) => [id, { upvotes: 0, downvotes: 0 }]));
      if (mergeRequestIds.length === 0) return result;
      const { rows } = await db.query<{ merge_request_id: number; upvotes: number; downvotes: number }>(
        `SELECT merge_request_id, count(*) FILTER (WHERE name = 'thumbsup')::int AS upvotes, count(*) FILTER (WHERE name = 'thumbsdown')::int AS downvotes
           FROM award_emoji WHERE merge_request_id = ANY($1::bigint[]) AND note_id IS NULL AND name IN ('thumbsup', 'thumbsdown')
          GROUP BY merge_request_id`,
        [mergeRequestIds],
      );
      for (const row of rows) result.set(row.merge_request_id, { upvotes: row.upvotes, downvotes: row.downvotes });
      return result;
    },
  };
}

export type AwardEmojiRepository = ReturnType<typeof createAwardEmojiRepository>;
