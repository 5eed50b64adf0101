/**
 * SQL of description versions. A version is always looked up inside its merge request, so the
 * id of another merge request's (or project's) version finds nothing.
 */
import { on, type Queryable } from '../../platform/db/database.js';

export interface DescriptionVersion {
  id: number;
  merge_request_id: number;
  author_id: number | null;
  description: string;
  deleted_at: Date | null;
  created_at: Date;
  /** the "changed the description" system note made for it, once projected */
  note_id: number | null;
}

const COLUMNS = `v.id, v.merge_request_id, v.author_id, v.description, v.deleted_at, v.created_at,
  (SELECT s.note_id FROM merge_request_events e JOIN merge_request_system_note_sources s ON s.source = 'event' AND s.source_id = e.id
    WHERE e.merge_request_id = v.merge_request_id AND e.action = 'description' AND e.to_value = v.id::text LIMIT 1) AS note_id`;

export function createDescriptionVersionsRepository(db: Queryable) {
  return {
    /**
     * Keeps the new description as a version; the first recorded edit also keeps the text it
     * replaced (dated when the merge request was opened), as GitLab does, so that it can be
     * compared with. Returns the new version's id.
     */
    async record(input: { mergeRequestId: number; authorId: number; previous: string; next: string; openedAt: Date }, tx?: Queryable): Promise<number> {
      const q = on(db, tx);
      const { rows: existing } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM description_versions WHERE merge_request_id = $1', [input.mergeRequestId]);
      if (existing[0]!.n === 0 && input.previous !== '') {
        await q.query('INSERT INTO description_versions (merge_request_id, author_id, description, created_at) VALUES ($1, NULL, $2, $3)', [input.mergeRequestId, input.previous, input.openedAt]);
      }
      const { rows } = await q.query<{ id: number }>('INSERT INTO description_versions (merge_request_id, author_id, description) VALUES ($1, $2, $3) RETURNING id', [
        input.mergeRequestId,
        input.authorId,
        input.next,
      ]);
      return Number(rows[0]!.id);
    },
    async list(mergeRequestId: number): Promise<DescriptionVersion[]> {
      const { rows } = await db.query<DescriptionVersion>(`SELECT ${COLUMNS} FROM description_versions v WHERE v.merge_request_id = $1 ORDER BY v.id`, [mergeRequestId]);
      return rows.map((row) => ({ ...row, id: Number(row.id), note_id: row.note_id === null ? null : Number(row.note_id) }));
    },
    async find(mergeRequestId: number, id: number): Promise<DescriptionVersion | undefined> {
      const { rows } = await db.query<DescriptionVersion>(`SELECT ${COLUMNS} FROM description_versions v WHERE v.merge_request_id = $1 AND v.id = $2`, [mergeRequestId, id]);
      const row = rows[0];
      return row ? { ...row, id: Number(row.id), note_id: row.note_id === null ? null : Number(row.note_id) } : undefined;
    },
    /** The latest version before `id` that is not deleted: what "previous version" compares with. */
    async previous(mergeRequestId: number, id: number): Promise<DescriptionVersion | undefined> {
      const { rows } = await db.query<{ id: number }>('SELECT id FROM description_versions WHERE merge_request_id = $1 AND id < $2 AND deleted_at IS NULL ORDER BY id DESC LIMIT 1', [mergeRequestId, id]);
      return rows[0] ? this.find(mergeRequestId, Number(rows[0].id)) : undefined;
    },
    /** Soft delete; false when it was already deleted (or is not there). */
    async softDelete(mergeRequestId: number, id: number): Promise<boolean> {
      const { rowCount } = await db.query('UPDATE description_versions SET deleted_at = now() WHERE merge_request_id = $1 AND id = $2 AND deleted_at IS NULL', [mergeRequestId, id]);
      return rowCount > 0;
    },
  };
}

export type DescriptionVersionsRepository = ReturnType<typeof createDescriptionVersionsRepository>;
