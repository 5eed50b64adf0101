/**
 * Versions of merge request diffs and their per-file metadata.
 *
 * Why no patch text in the database: every version's head, start and base commits stay in the
 * target repository (refs/merge-requests/:iid/head and refs/keep-around/<sha>), so git can
 * always regenerate a version's patches exactly, from three SHAs, in milliseconds per file.
 * Storing the text would copy every diff of every push into PostgreSQL for good (GitLab grew
 * "external diffs" storage to get that volume out again). What is stored is small and
 * answers without git what pages ask most: the file list with paths, modes, flags and line
 * counts, `changes_count`, and which files of a long diff belong to a requested page.
 *
 * The rows are recorded without patch text too (git/diff-stats.ts): `too_large` and
 * `collapsed` are what blob sizes and line counts settle; a file near the collapse limit is
 * stored uncollapsed and collapsed by the read that prints its text (merge-request-changes).
 */
import { on, type Queryable } from '../../platform/db/database.js';
import type { DiffFileRow, DiffVersion, MergeStatus } from './merge-request.js';

export type NewDiffVersion = Omit<DiffVersion, 'id' | 'merge_request_id' | 'created_at'>;

const VERSION_COLUMNS = 'id, merge_request_id, base_commit_sha, start_commit_sha, head_commit_sha, state, real_size, commits_count, files_count, added_lines, removed_lines, created_at';
const FILE_COLUMNS = [
  'relative_order',
  'old_path',
  'new_path',
  'a_mode',
  'b_mode',
  'new_file',
  'renamed_file',
  'deleted_file',
  'too_large',
  'collapsed',
  'binary',
  'old_blob_id',
  'new_blob_id',
  'added_lines',
  'removed_lines',
] as const;
const FILE_TYPES: Record<(typeof FILE_COLUMNS)[number], string> = {
  relative_order: 'int',
  old_path: 'text',
  new_path: 'text',
  a_mode: 'text',
  b_mode: 'text',
  new_file: 'boolean',
  renamed_file: 'boolean',
  deleted_file: 'boolean',
  too_large: 'boolean',
  collapsed: 'boolean',
  binary: 'boolean',
  old_blob_id: 'text',
  new_blob_id: 'text',
  added_lines: 'int',
  removed_lines: 'int',
};

/** `binary` is a reserved word in PostgreSQL: the column is binary_file. */
const columnOf = (field: (typeof FILE_COLUMNS)[number]) => (field === 'binary' ? 'binary_file' : field);
const SELECT_FILES = FILE_COLUMNS.map((field) => (field === 'binary' ? 'binary_file AS binary' : field)).join(', ');

export function createMergeRequestDiffsRepository(db: Queryable) {
  return {
    /**
     * Stores a version and its files and makes it the latest (with the mergeability computed
     * for it), in the caller's transaction.
     * The files go in one statement (one array per column), whatever their number.
     */
    async insert(mergeRequestId: number, version: NewDiffVersion, files: DiffFileRow[], mergeStatus: MergeStatus, tx: Queryable): Promise<number> {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO merge_request_diffs (merge_request_id, base_commit_sha, start_commit_sha, head_commit_sha, state, real_size, commits_count, files_count, added_lines, removed_lines)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [
          mergeRequestId,
          version.base_commit_sha,
          version.start_commit_sha,
          version.head_commit_sha,
          version.state,
          version.real_size,
          version.commits_count,
          version.files_count,
          version.added_lines,
          version.removed_lines,
        ],
      );
      const id = rows[0]!.id;
      if (files.length > 0) {
        const arrays = FILE_COLUMNS.map((column) => files.map((file) => file[column]));
        const unnest = FILE_COLUMNS.map((column, i) => `$${i + 2}::${FILE_TYPES[column]}[]`).join(', ');
        await tx.query(
          `INSERT INTO merge_request_diff_files (merge_request_diff_id, ${FILE_COLUMNS.map(columnOf).join(', ')})
           SELECT $1, * FROM unnest(${unnest})`,
          [id, ...arrays],
        );
      }
      await tx.query('UPDATE merge_requests SET latest_diff_id = $2, merge_status = $3, updated_at = now() WHERE id = $1', [mergeRequestId, id, mergeStatus]);
      return id;
    },
    async latest(mergeRequestId: number, tx?: Queryable): Promise<DiffVersion | undefined> {
      const { rows } = await on(db, tx).query<DiffVersion>(`SELECT ${VERSION_COLUMNS} FROM merge_request_diffs WHERE merge_request_id = $1 ORDER BY id DESC LIMIT 1`, [mergeRequestId]);
      return rows[0];
    },
    /** Newest first, as GitLab lists versions. */
    async list(mergeRequestId: number): Promise<DiffVersion[]> {
      const { rows } = await db.query<DiffVersion>(`SELECT ${VERSION_COLUMNS} FROM merge_request_diffs WHERE merge_request_id = $1 ORDER BY id DESC`, [mergeRequestId]);
      return rows;
    },
    async find(mergeRequestId: number, versionId: number): Promise<DiffVersion | undefined> {
      const { rows } = await db.query<DiffVersion>(`SELECT ${VERSION_COLUMNS} FROM merge_request_diffs WHERE merge_request_id = $1 AND id = $2`, [mergeRequestId, versionId]);
      return rows[0];
    },
    async files(versionId: number, page?: { limit: number; offset: number }): Promise<DiffFileRow[]> {
      const slice = page ? ` LIMIT ${page.limit} OFFSET ${page.offset}` : '';
      const { rows } = await db.query<DiffFileRow>(
        `SELECT ${SELECT_FILES} FROM merge_request_diff_files WHERE merge_request_diff_id = $1 ORDER BY relative_order${slice}`,
        [versionId],
      );
      return rows;
    },
    /** The files of a version with this old or new path (a type change is two). */
    async filesAtPath(versionId: number, path: string): Promise<DiffFileRow[]> {
      const { rows } = await db.query<DiffFileRow>(
        `SELECT ${SELECT_FILES} FROM merge_request_diff_files WHERE merge_request_diff_id = $1 AND (new_path = $2 OR old_path = $2) ORDER BY relative_order`,
        [versionId, path],
      );
      return rows;
    },
    /** Sets the mergeability result, unless a newer version has replaced the one it was computed for. */
    async setMergeStatus(mergeRequestId: number, forDiffId: number, status: MergeStatus): Promise<void> {
      await db.query('UPDATE merge_requests SET merge_status = $3 WHERE id = $1 AND latest_diff_id = $2', [mergeRequestId, forDiffId, status]);
    },
  };
}

export type MergeRequestDiffsRepository = ReturnType<typeof createMergeRequestDiffsRepository>;
