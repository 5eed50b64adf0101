/**
 * All SQL of auto-merge: the setting on a merge request (merge_request_auto_merges, migration
 * 0044) and the merge request's merge_user_id / merge_error that GitLab's entities show with it.
 */
import { on, type Queryable } from '../../platform/db/database.js';
import type { AutoMergeStrategy } from './strategy.js';

export interface AutoMergeSetting {
  merge_request_id: number;
  user_id: number;
  strategy: AutoMergeStrategy;
  state: 'enabled' | 'failed';
  sha: string;
  target_branch: string;
  squash: boolean | null;
  should_remove_source_branch: boolean | null;
  merge_commit_message: string | null;
  squash_commit_message: string | null;
  failure: string | null;
  /** bumped by every change; a removal names the version it read */
  lock_version: number;
  created_at: Date;
  updated_at: Date;
}

export type NewAutoMergeSetting = Pick<
  AutoMergeSetting,
  'merge_request_id' | 'user_id' | 'strategy' | 'sha' | 'target_branch' | 'squash' | 'should_remove_source_branch' | 'merge_commit_message' | 'squash_commit_message'
>;

export function createAutoMergeRepository(db: Queryable) {
  return {
    async find(mergeRequestId: number, tx?: Queryable): Promise<AutoMergeSetting | undefined> {
      const { rows } = await on(db, tx).query<AutoMergeSetting>('SELECT * FROM merge_request_auto_merges WHERE merge_request_id = $1', [mergeRequestId]);
      return rows[0];
    },

    /** The settings of many merge requests (lists, entities), by merge request id. */
    async findMany(mergeRequestIds: readonly number[]): Promise<Map<number, AutoMergeSetting>> {
      if (mergeRequestIds.length === 0) return new Map();
      const { rows } = await db.query<AutoMergeSetting>('SELECT * FROM merge_request_auto_merges WHERE merge_request_id = ANY($1::bigint[])', [mergeRequestIds]);
      return new Map(rows.map((row) => [Number(row.merge_request_id), row]));
    },

    /** Sets (or sets again, replacing a failed or older one) the auto-merge of a merge request, and its merge user. */
    async upsert(setting: NewAutoMergeSetting, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO merge_request_auto_merges (merge_request_id, user_id, strategy, sha, target_branch, squash, should_remove_source_branch, merge_commit_message, squash_commit_message)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (merge_request_id) DO UPDATE SET user_id = $2, strategy = $3, state = 'enabled', sha = $4, target_branch = $5, squash = $6,
           should_remove_source_branch = $7, merge_commit_message = $8, squash_commit_message = $9, failure = NULL,
           lock_version = merge_request_auto_merges.lock_version + 1, updated_at = now()`,
        [setting.merge_request_id, setting.user_id, setting.strategy, setting.sha, setting.target_branch, setting.squash, setting.should_remove_source_branch, setting.merge_commit_message, setting.squash_commit_message],
      );
      await tx.query('UPDATE merge_requests SET merge_user_id = $2, merge_error = NULL, updated_at = now() WHERE id = $1', [setting.merge_request_id, setting.user_id]);
    },

    /**
     * Removes the setting when it is still the one the caller read (same lock_version): a
     * setting changed meanwhile stays. Clears the merge user of an open request. False when
     * there was nothing to remove.
     */
    async remove(mergeRequestId: number, tx: Queryable, expectedVersion?: number): Promise<boolean> {
      const { rowCount } = await tx.query(
        `DELETE FROM merge_request_auto_merges WHERE merge_request_id = $1 AND ($2::integer IS NULL OR lock_version = $2::integer)`,
        [mergeRequestId, expectedVersion ?? null],
      );
      if (rowCount === 0) return false;
      await tx.query(`UPDATE merge_requests SET merge_user_id = NULL, merge_error = NULL, updated_at = now() WHERE id = $1 AND state <> 'merged'`, [mergeRequestId]);
      return true;
    },

    /** The merge failed: the setting stays, marked failed with the error, for the page. */
    async markFailed(mergeRequestId: number, failure: string, tx?: Queryable): Promise<void> {
      await on(db, tx).query(`UPDATE merge_request_auto_merges SET state = 'failed', failure = $2, lock_version = lock_version + 1, updated_at = now() WHERE merge_request_id = $1 AND state = 'enabled'`, [mergeRequestId, failure]);
    },

    /** The setter's own push: the auto-merge follows the branch to its new head. */
    async follow(mergeRequestId: number, sha: string, tx: Queryable): Promise<void> {
      await tx.query(`UPDATE merge_request_auto_merges SET sha = $2, lock_version = lock_version + 1, updated_at = now() WHERE merge_request_id = $1`, [mergeRequestId, sha]);
    },

    /**
     * The merge requests whose enabled auto-merge a change of `mergeRequestId` may complete: the
     * request itself, and the open requests it blocks (its merge unblocks them).
     */
    async affectedBy(mergeRequestId: number, tx: Queryable): Promise<number[]> {
      const { rows } = await tx.query<{ merge_request_id: number }>(
        `SELECT a.merge_request_id FROM merge_request_auto_merges a
          WHERE a.state = 'enabled'
            AND (a.merge_request_id = $1
                 OR a.merge_request_id IN (SELECT b.blocked_merge_request_id FROM merge_request_blocks b WHERE b.blocking_merge_request_id = $1))`,
        [mergeRequestId],
      );
      return rows.map((row) => Number(row.merge_request_id));
    },
  };
}

export type AutoMergeRepository = ReturnType<typeof createAutoMergeRepository>;
