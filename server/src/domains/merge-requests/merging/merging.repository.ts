/**
 * All SQL of merging and rebasing: merge intents (migration 0004), the merged state of a
 * merge request, its rebase flag, and the project's commit templates.
 */
import { on, type Queryable } from '../../../platform/db/database.js';
import type { MergeIntentState } from './merge-intent.js';
import type { MergeMethod } from './merge-plan.js';

export interface MergeIntent {
  id: number;
  merge_request_id: number;
  project_id: number;
  user_id: number | null;
  target_branch: string;
  merge_method: MergeMethod;
  source_sha: string;
  expected_old_sha: string;
  new_sha: string;
  merge_commit_sha: string | null;
  squash_commit_sha: string | null;
  delete_source_branch_as: number | null;
  should_remove_source_branch: boolean | null;
  state: MergeIntentState;
  post_merge_done: boolean;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewMergeIntent = Pick<
  MergeIntent,
  | 'merge_request_id'
  | 'project_id'
  | 'user_id'
  | 'target_branch'
  | 'merge_method'
  | 'source_sha'
  | 'expected_old_sha'
  | 'new_sha'
  | 'merge_commit_sha'
  | 'squash_commit_sha'
  | 'delete_source_branch_as'
  | 'should_remove_source_branch'
>;

export interface CommitTemplates {
  merge: string | null;
  squash: string | null;
}

const INTENT_COLUMNS = `id, merge_request_id, project_id, user_id, target_branch, merge_method, source_sha, expected_old_sha, new_sha,
  merge_commit_sha, squash_commit_sha, delete_source_branch_as, should_remove_source_branch, state, post_merge_done, error, created_at, updated_at`;

/**
 * `owner` is the session name of this process's connections (Database.sessionName): an intent
 * names the process merging it, so that other processes settle it only once that process is gone.
 */
export function createMergingRepository(db: Queryable, owner: string) {
  return {
    /** Throws a unique violation when the request already has an unfinished intent (a concurrent merge). */
    async insertIntent(intent: NewMergeIntent, tx?: Queryable): Promise<MergeIntent> {
      const { rows } = await on(db, tx).query<MergeIntent>(
        `INSERT INTO merge_intents (merge_request_id, project_id, user_id, target_branch, merge_method, source_sha, expected_old_sha, new_sha,
                                    merge_commit_sha, squash_commit_sha, delete_source_branch_as, should_remove_source_branch, owner)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${INTENT_COLUMNS}`,
        [
          intent.merge_request_id,
          intent.project_id,
          intent.user_id,
          intent.target_branch,
          intent.merge_method,
          intent.source_sha,
          intent.expected_old_sha,
          intent.new_sha,
          intent.merge_commit_sha,
          intent.squash_commit_sha,
          intent.delete_source_branch_as,
          intent.should_remove_source_branch,
          owner,
        ],
      );
      return rows[0]!;
    },

    /** Locks the intent until the transaction ends; undefined when `skipLocked` and another holds it. */
    async lockIntent(id: number, tx: Queryable, options: { skipLocked?: boolean } = {}): Promise<MergeIntent | undefined> {
      const { rows } = await tx.query<MergeIntent>(`SELECT ${INTENT_COLUMNS} FROM merge_intents WHERE id = $1 FOR UPDATE${options.skipLocked ? ' SKIP LOCKED' : ''}`, [id]);
      return rows[0];
    },

    /** Moves the intent from one of `from` to `to`; false when it was no longer in `from` (someone else moved it). */
    async transition(id: number, from: readonly MergeIntentState[], to: MergeIntentState, tx: Queryable, error: string | null = null): Promise<boolean> {
      const { rowCount } = await tx.query(
        `UPDATE merge_intents SET state = $3, error = COALESCE($4, error), updated_at = now() WHERE id = $1 AND state = ANY($2::text[])`,
        [id, from, to, error],
      );
      return rowCount > 0;
    },

    async markPostMergeDone(id: number): Promise<void> {
      await db.query('UPDATE merge_intents SET post_merge_done = true, updated_at = now() WHERE id = $1', [id]);
    },

    /**
     * Unfinished intents whose process is gone: no session of its name is left in
     * pg_stat_activity (a killed process's connections close with it; on PGlite, which one
     * process owns, any other name is a previous process). This process's own are never listed.
     */
    async toReconcile(): Promise<MergeIntent[]> {
      const { rows } = await db.query<MergeIntent>(
        `SELECT ${INTENT_COLUMNS} FROM merge_intents i
          WHERE i.state IN ('pending', 'ref_moved')
            AND (i.owner IS NULL
                 OR (i.owner <> $1 AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = i.owner)))
          ORDER BY i.id`,
        [owner],
      );
      return rows;
    },

    async findIntent(id: number): Promise<MergeIntent | undefined> {
      const { rows } = await db.query<MergeIntent>(`SELECT ${INTENT_COLUMNS} FROM merge_intents WHERE id = $1`, [id]);
      return rows[0];
    },

    /** Is a merge of this request under way (GitLab's merge_ongoing)? One index lookup. */
    async hasUnfinished(mergeRequestId: number): Promise<boolean> {
      const { rowCount } = await db.query(`SELECT 1 FROM merge_intents WHERE merge_request_id = $1 AND state IN ('pending', 'ref_moved')`, [mergeRequestId]);
      return rowCount > 0;
    },

    async intentsFor(mergeRequestId: number): Promise<MergeIntent[]> {
      const { rows } = await db.query<MergeIntent>(`SELECT ${INTENT_COLUMNS} FROM merge_intents WHERE merge_request_id = $1 ORDER BY id`, [mergeRequestId]);
      return rows;
    },

    /** The request as merged by the intent; idempotent (a merged request keeps its first record). */
    async markMerged(intent: MergeIntent, tx: Queryable): Promise<void> {
      await tx.query(
        `UPDATE merge_requests
            SET state = 'merged', merge_commit_sha = $2, squash_commit_sha = $3, merged_by_id = $4, merge_user_id = $4,
                merged_at = now(), should_remove_source_branch = COALESCE($5, should_remove_source_branch), merge_error = NULL,
                updated_at = now()
          WHERE id = $1 AND state <> 'merged'`,
        [intent.merge_request_id, intent.merge_commit_sha, intent.squash_commit_sha, intent.user_id, intent.should_remove_source_branch],
      );
    },

    async setMergeError(mergeRequestId: number, message: string | null, tx?: Queryable): Promise<void> {
      await on(db, tx).query('UPDATE merge_requests SET merge_error = $2, updated_at = now() WHERE id = $1', [mergeRequestId, message]);
    },

    /** Sets the rebase flag on an open request that has none; false when it is not open or already rebasing. */
    async startRebase(mergeRequestId: number, tx: Queryable): Promise<boolean> {
      const { rowCount } = await tx.query(
        `UPDATE merge_requests SET rebase_in_progress = true, updated_at = now() WHERE id = $1 AND state = 'opened' AND NOT rebase_in_progress`,
        [mergeRequestId],
      );
      return rowCount > 0;
    },

    /** Clears the flag; the request's merge_error becomes `error` (null after a rebase that worked). */
    async finishRebase(mergeRequestId: number, error: string | null): Promise<void> {
      await db.query('UPDATE merge_requests SET rebase_in_progress = false, merge_error = $2, updated_at = now() WHERE id = $1', [mergeRequestId, error]);
    },

    /**
     * The project's merge and squash commit templates. Read as JSON so this works whether or
     * not the columns exist yet (migration 0003 adds them with the mergeability checks).
     */
    async commitTemplates(projectId: number): Promise<CommitTemplates> {
      const { rows } = await db.query<{ settings: Record<string, unknown> }>('SELECT to_jsonb(p) AS settings FROM projects p WHERE p.id = $1', [projectId]);
      const settings = rows[0]?.settings ?? {};
      const text = (key: string) => (typeof settings[key] === 'string' ? (settings[key] as string) : null);
      return { merge: text('merge_commit_template'), squash: text('squash_commit_template') };
    },
  };
}

export type MergingRepository = ReturnType<typeof createMergingRepository>;
