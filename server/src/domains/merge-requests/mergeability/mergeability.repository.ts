/** All SQL of mergeability: trial merge results and their lease, settings, dependencies. */
import { on, type Queryable } from '../../../platform/db/database.js';
import type { MergeRequestState, MergeStatus } from '../merge-request.js';
import type { MergeabilitySettings } from './facts.js';

export interface StoredTrialMerge {
  mergeStatus: Extract<MergeStatus, 'can_be_merged' | 'cannot_be_merged'>;
  headSha: string;
  sourceSha: string | null;
  targetSha: string | null;
  mergeRefSha: string | null;
  divergedCommitsCount: number | null;
}

export interface MergeRequestBlock {
  id: number;
  blocking_merge_request_id: number;
  blocked_merge_request_id: number;
  /** the blocking request's target project (GitLab's MergeRequestDependency project_id) */
  project_id: number;
  created_at: Date;
}

export type LeaseClaim = 'claimed' | 'busy' | 'not-open';

/** The merge requests a change to them concerns: id and target project, for events. */
export interface ChangedMergeRequest {
  id: number;
  target_project_id: number;
}

const BLOCK_SELECT = `SELECT b.id, b.blocking_merge_request_id, b.blocked_merge_request_id, m.target_project_id AS project_id, b.created_at
  FROM merge_request_blocks b JOIN merge_requests m ON m.id = b.blocking_merge_request_id`;

export function createMergeabilityRepository(db: Queryable) {
  return {
    /** The state of every merge request that blocks each of `ids` (BLOCKED_STATUS), in one query. */
    async blockerStates(ids: readonly number[]): Promise<Map<number, MergeRequestState[]>> {
      const result = new Map<number, MergeRequestState[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return result;
      const { rows } = await db.query<{ blocked: number; state: MergeRequestState }>(
        `SELECT b.blocked_merge_request_id AS blocked, m.state FROM merge_request_blocks b
           JOIN merge_requests m ON m.id = b.blocking_merge_request_id
          WHERE b.blocked_merge_request_id = ANY($1::bigint[]) ORDER BY b.id`,
        [ids],
        { name: 'mergeability.blocker_states' },
      );
      for (const row of rows) result.get(Number(row.blocked))?.push(row.state);
      return result;
    },
    async settings(projectIds: readonly number[]): Promise<Map<number, MergeabilitySettings>> {
      if (projectIds.length === 0) return new Map();
      const { rows } = await db.query<MergeabilitySettings & { id: number }>(
        `SELECT id, merge_method, only_allow_merge_if_all_discussions_are_resolved, merge_request_title_regex,
                only_allow_merge_if_pipeline_succeeds, allow_merge_on_skipped_pipeline FROM projects WHERE id = ANY($1::bigint[])`,
        [[...new Set(projectIds)]],
      );
      return new Map(rows.map(({ id, ...settings }) => [Number(id), settings]));
    },

    /**
     * Takes the merge request's trial-merge lease (GitLab's exclusive lease
     * `mergeability_check:<id>`) unless another holds it; only open requests are checked.
     */
    async claimLease(id: number, seconds: number): Promise<LeaseClaim> {
      const claimed = await db.query(
        `UPDATE merge_requests SET merge_check_lease_until = now() + make_interval(secs => $2)
          WHERE id = $1 AND state = 'opened' AND (merge_check_lease_until IS NULL OR merge_check_lease_until < now())`,
        [id, seconds],
      );
      if (claimed.rowCount > 0) return 'claimed';
      const { rows } = await db.query<{ state: MergeRequestState }>('SELECT state FROM merge_requests WHERE id = $1', [id]);
      return rows[0]?.state === 'opened' ? 'busy' : 'not-open';
    },
    async releaseLease(id: number, tx?: Queryable): Promise<void> {
      await on(db, tx).query('UPDATE merge_requests SET merge_check_lease_until = NULL WHERE id = $1', [id]);
    },
    /**
     * Stores a trial merge and releases the lease. Kept only while the version it merged is
     * still the latest (a newer version has its own check coming). True when stored.
     */
    async storeTrialMerge(id: number, forDiffId: number, result: StoredTrialMerge, tx: Queryable): Promise<boolean> {
      const stored = await tx.query(
        `UPDATE merge_requests SET merge_status = $3, merge_check_head_sha = $4, merge_check_source_sha = $5, merge_check_target_sha = $6,
                merge_ref_sha = $7, diverged_commits_count = $8, merge_checked_at = now(), merge_check_lease_until = NULL
          WHERE id = $1 AND latest_diff_id = $2`,
        [id, forDiffId, result.mergeStatus, result.headSha, result.sourceSha, result.targetSha, result.mergeRefSha, result.divergedCommitsCount],
      );
      if (stored.rowCount === 0) await tx.query('UPDATE merge_requests SET merge_check_lease_until = NULL WHERE id = $1', [id]);
      return stored.rowCount > 0;
    },
    /**
     * A push moved these branches of the project: every open merge request from or into one
     * of them is rechecked, and says so meanwhile (GitLab: unchecked, then checking; a
     * request that conflicted says cannot_be_merged_rechecking).
     */
    async markChecking(projectId: number, branches: readonly string[], tx: Queryable): Promise<ChangedMergeRequest[]> {
      const { rows } = await tx.query<ChangedMergeRequest>(
        `UPDATE merge_requests
            SET merge_status = CASE WHEN merge_status LIKE 'cannot_be_merged%' THEN 'cannot_be_merged_rechecking' ELSE 'checking' END
          WHERE state = 'opened' AND latest_diff_id IS NOT NULL
            AND ((target_project_id = $1 AND target_branch = ANY($2::text[])) OR (source_project_id = $1 AND source_branch = ANY($2::text[])))
          RETURNING id, target_project_id`,
        [projectId, branches],
      );
      return rows.map((row) => ({ id: Number(row.id), target_project_id: Number(row.target_project_id) }));
    },
    /** Open requests that `blockingId` blocks, when it is merged (their BLOCKED_STATUS just passed). */
    async openUnblockedBy(blockingId: number): Promise<ChangedMergeRequest[]> {
      const { rows } = await db.query<ChangedMergeRequest>(
        `SELECT m.id, m.target_project_id FROM merge_request_blocks b
           JOIN merge_requests blocking ON blocking.id = b.blocking_merge_request_id AND blocking.state = 'merged'
           JOIN merge_requests m ON m.id = b.blocked_merge_request_id
          WHERE b.blocking_merge_request_id = $1 AND m.state = 'opened' ORDER BY m.id`,
        [blockingId],
      );
      return rows.map((row) => ({ id: Number(row.id), target_project_id: Number(row.target_project_id) }));
    },

    /* ---------------------------------------------------------------- dependencies */

    /** Creates a block; null when it already exists (the unique pair). */
    async insertBlock(blockingId: number, blockedId: number, tx?: Queryable): Promise<number | null> {
      const { rows } = await on(db, tx).query<{ id: number }>(
        `INSERT INTO merge_request_blocks (blocking_merge_request_id, blocked_merge_request_id) VALUES ($1, $2)
         ON CONFLICT (blocking_merge_request_id, blocked_merge_request_id) DO NOTHING RETURNING id`,
        [blockingId, blockedId],
      );
      return rows[0] ? Number(rows[0].id) : null;
    },
    /** Would `blockingId` blocking `blockedId` close a cycle (is `blockedId` already upstream of it)? */
    async wouldCycle(blockingId: number, blockedId: number, tx?: Queryable): Promise<boolean> {
      const { rows } = await on(db, tx).query(
        `WITH RECURSIVE upstream(id) AS (
           SELECT blocking_merge_request_id FROM merge_request_blocks WHERE blocked_merge_request_id = $1
           UNION SELECT b.blocking_merge_request_id FROM merge_request_blocks b JOIN upstream u ON b.blocked_merge_request_id = u.id
         ) SELECT 1 FROM upstream WHERE id = $2 LIMIT 1`,
        [blockingId, blockedId],
      );
      return rows.length > 0;
    },
    /** Blocks where `mergeRequestId` is the blocked side (GitLab's blocks_as_blockee), oldest first. */
    async blocksOf(mergeRequestId: number): Promise<MergeRequestBlock[]> {
      const { rows } = await db.query<MergeRequestBlock>(`${BLOCK_SELECT} WHERE b.blocked_merge_request_id = $1 ORDER BY b.id`, [mergeRequestId]);
      return rows;
    },
    /** Blocks where `mergeRequestId` is the blocking side (GitLab's blocks_as_blocker). */
    async blockeesOf(mergeRequestId: number): Promise<MergeRequestBlock[]> {
      const { rows } = await db.query<MergeRequestBlock>(`${BLOCK_SELECT} WHERE b.blocking_merge_request_id = $1 ORDER BY b.id`, [mergeRequestId]);
      return rows;
    },
    async findBlock(blockedId: number, blockId: number): Promise<MergeRequestBlock | undefined> {
      const { rows } = await db.query<MergeRequestBlock>(`${BLOCK_SELECT} WHERE b.blocked_merge_request_id = $1 AND b.id = $2`, [blockedId, blockId]);
      return rows[0];
    },
    async deleteBlock(blockId: number, tx?: Queryable): Promise<void> {
      await on(db, tx).query('DELETE FROM merge_request_blocks WHERE id = $1', [blockId]);
    },
  };
}

export type MergeabilityRepository = ReturnType<typeof createMergeabilityRepository>;
