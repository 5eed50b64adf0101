/** All SQL of merge trains (table merge_trains, migration 0045). */
import { on, type Queryable } from '../../platform/db/database.js';
import { ACTIVE_STATUSES, COMPLETE_STATUSES, ON_TRAIN_STATUSES, type Car, type CarStatus } from './car.js';

const COLUMNS = `id, merge_request_id, user_id, pipeline_id, target_project_id, target_branch, status, squash, merge_commit_message, squash_commit_message,
  should_remove_source_branch, source_sha, base_sha, train_sha,
  merge_commit_sha, squash_commit_sha, merged_at, duration, created_at, updated_at`;

export interface CarListFilter {
  projectId: number;
  targetBranch?: string;
  scope?: 'active' | 'complete';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface NewCar {
  merge_request_id: number;
  user_id: number;
  target_project_id: number;
  target_branch: string;
  squash: boolean;
  source_sha: string;
  status?: CarStatus;
  merge_commit_message?: string | null;
  squash_commit_message?: string | null;
  should_remove_source_branch?: boolean | null;
}

/** What a rebuilt car now tests. */
export interface CarBuild {
  pipeline_id: number | null;
  base_sha: string;
  train_sha: string;
  merge_commit_sha: string | null;
  squash_commit_sha: string | null;
}

const normalize = (row: Car): Car => ({
  ...row,
  id: Number(row.id),
  merge_request_id: Number(row.merge_request_id),
  user_id: row.user_id === null ? null : Number(row.user_id),
  pipeline_id: row.pipeline_id === null ? null : Number(row.pipeline_id),
  target_project_id: Number(row.target_project_id),
});

export function createMergeTrainsRepository(db: Queryable) {
  return {
    /** Throws a unique violation when the merge request already has a car on a train. */
    async insert(car: NewCar, tx?: Queryable): Promise<Car> {
      const { rows } = await on(db, tx).query<Car>(
        `INSERT INTO merge_trains (merge_request_id, user_id, target_project_id, target_branch, squash, source_sha, status, merge_commit_message, squash_commit_message, should_remove_source_branch)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
        [
          car.merge_request_id,
          car.user_id,
          car.target_project_id,
          car.target_branch,
          car.squash,
          car.source_sha,
          car.status ?? 'idle',
          car.merge_commit_message ?? null,
          car.squash_commit_message ?? null,
          car.should_remove_source_branch ?? null,
        ],
      );
      return normalize(rows[0]!);
    },

    /**
     * Serializes additions to one train until the transaction ends: a car's id (its place) and
     * the count of cars ahead (its note's position) are then read after every earlier addition
     * committed. A transaction-scoped advisory lock on the train's name.
     */
    async lockTrain(projectId: number, targetBranch: string, tx: Queryable): Promise<void> {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`merge_train:${projectId}:${targetBranch}`]);
    },

    /** The cars on one train (active and merging), front first. */
    async onTrain(projectId: number, targetBranch: string, tx?: Queryable): Promise<Car[]> {
      const { rows } = await on(db, tx).query<Car>(
        `SELECT ${COLUMNS} FROM merge_trains WHERE target_project_id = $1 AND target_branch = $2 AND status = ANY($3::text[]) ORDER BY id`,
        [projectId, targetBranch, ON_TRAIN_STATUSES],
      );
      return rows.map(normalize);
    },

    /** The merge request's car while it is on a train, else its latest (GitLab's merge_train_car). */
    async carOf(mergeRequestId: number, tx?: Queryable): Promise<Car | undefined> {
      const { rows } = await on(db, tx).query<Car>(
        `SELECT ${COLUMNS} FROM merge_trains WHERE merge_request_id = $1 ORDER BY (status = ANY($2::text[])) DESC, id DESC LIMIT 1`,
        [mergeRequestId, ON_TRAIN_STATUSES],
      );
      return rows[0] ? normalize(rows[0]) : undefined;
    },

    async activeCarsOf(mergeRequestIds: readonly number[]): Promise<Car[]> {
      if (mergeRequestIds.length === 0) return [];
      const { rows } = await db.query<Car>(`SELECT ${COLUMNS} FROM merge_trains WHERE merge_request_id = ANY($1::bigint[]) AND status = ANY($2::text[])`, [mergeRequestIds, ON_TRAIN_STATUSES]);
      return rows.map(normalize);
    },

    async findById(id: number, tx?: Queryable): Promise<Car | undefined> {
      const { rows } = await on(db, tx).query<Car>(`SELECT ${COLUMNS} FROM merge_trains WHERE id = $1`, [id]);
      return rows[0] ? normalize(rows[0]) : undefined;
    },

    /** The car with its row locked, for a change decided on what it holds now. */
    async lock(id: number, tx: Queryable): Promise<Car | undefined> {
      const { rows } = await tx.query<Car>(`SELECT ${COLUMNS} FROM merge_trains WHERE id = $1 FOR UPDATE`, [id]);
      return rows[0] ? normalize(rows[0]) : undefined;
    },

    /** Active cars ahead of this one (GitLab's index). */
    async indexOf(car: Pick<Car, 'id' | 'target_project_id' | 'target_branch'>, tx?: Queryable): Promise<number> {
      const { rows } = await on(db, tx).query<{ n: string }>(
        `SELECT count(*) AS n FROM merge_trains WHERE target_project_id = $1 AND target_branch = $2 AND status = ANY($3::text[]) AND id < $4`,
        [car.target_project_id, car.target_branch, ON_TRAIN_STATUSES, car.id],
      );
      return Number(rows[0]!.n);
    },

    /** Cars on each train, by target branch: the count GitLab's merge train position shows. */
    async countOnTrain(projectId: number, targetBranch: string, tx?: Queryable): Promise<number> {
      const { rows } = await on(db, tx).query<{ n: string }>(`SELECT count(*) AS n FROM merge_trains WHERE target_project_id = $1 AND target_branch = $2 AND status = ANY($3::text[])`, [
        projectId,
        targetBranch,
        ON_TRAIN_STATUSES,
      ]);
      return Number(rows[0]!.n);
    },

    /** GET /projects/:id/merge_trains[/:target_branch]: GitLab's CarsFinder, sorted by id. */
    async list(filter: CarListFilter): Promise<{ cars: Car[]; total: number }> {
      const params: unknown[] = [filter.projectId];
      const where = ['target_project_id = $1'];
      if (filter.targetBranch !== undefined) {
        params.push(filter.targetBranch);
        where.push(`target_branch = $${params.length}`);
      }
      if (filter.scope) {
        params.push(filter.scope === 'active' ? ACTIVE_STATUSES : COMPLETE_STATUSES);
        where.push(`status = ANY($${params.length}::text[])`);
      }
      const { rows } = await db.query<Car & { total: string }>(
        `SELECT ${COLUMNS}, count(*) OVER () AS total FROM merge_trains WHERE ${where.join(' AND ')}
          ORDER BY id ${filter.sort === 'asc' ? 'ASC' : 'DESC'} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, filter.limit, filter.offset],
      );
      return { cars: rows.map(({ total: _total, ...row }) => normalize(row as Car)), total: rows[0] ? Number(rows[0].total) : 0 };
    },

    /** Trains with cars on them (for the refresh after a restart). */
    async trainsWithCars(): Promise<Array<{ projectId: number; targetBranch: string }>> {
      const { rows } = await db.query<{ target_project_id: string; target_branch: string }>(
        `SELECT DISTINCT target_project_id, target_branch FROM merge_trains WHERE status = ANY($1::text[])`,
        [ON_TRAIN_STATUSES],
      );
      return rows.map((row) => ({ projectId: Number(row.target_project_id), targetBranch: row.target_branch }));
    },

    /**
     * The car now tests `build` (fresh), if it still is as the caller saw it (status and
     * pipeline): a compare-and-swap, so two refreshes of one train cannot both rebuild a car.
     */
    async recordBuild(car: Pick<Car, 'id' | 'status' | 'pipeline_id'>, build: CarBuild, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query(
        `UPDATE merge_trains SET status = 'fresh', pipeline_id = $3, base_sha = $4, train_sha = $5, merge_commit_sha = $6, squash_commit_sha = $7, updated_at = now()
          WHERE id = $1 AND status = $2 AND pipeline_id IS NOT DISTINCT FROM $8`,
        [car.id, car.status, build.pipeline_id, build.base_sha, build.train_sha, build.merge_commit_sha, build.squash_commit_sha, car.pipeline_id],
      );
      return (rowCount ?? 0) > 0;
    },

    /** A compare-and-swap of the status; answers whether it won. */
    async transition(id: number, from: readonly CarStatus[], to: CarStatus, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query(`UPDATE merge_trains SET status = $3, updated_at = now() WHERE id = $1 AND status = ANY($2::text[])`, [id, from, to]);
      return (rowCount ?? 0) > 0;
    },

    async markMerged(id: number, tx: Queryable): Promise<boolean> {
      const { rowCount } = await tx.query(
        `UPDATE merge_trains SET status = 'merged', merged_at = now(), duration = GREATEST(0, round(extract(epoch FROM now() - created_at)))::integer, updated_at = now()
          WHERE id = $1 AND status = 'merging'`,
        [id],
      );
      return (rowCount ?? 0) > 0;
    },

    /**
     * The car leaves the train (GitLab destroys it); answers whether this call removed it. An open
     * merge request no longer names a merge user then, unless its own auto-merge is set
     * (isAutoMergeSet: the merge user is set exactly while auto-merge is, or the request is a car).
     */
    async remove(id: number, tx?: Queryable): Promise<boolean> {
      const q = on(db, tx);
      const { rows } = await q.query<{ merge_request_id: string }>(`DELETE FROM merge_trains WHERE id = $1 AND status = ANY($2::text[]) RETURNING merge_request_id`, [id, ON_TRAIN_STATUSES]);
      if (!rows[0]) return false;
      await q.query(
        `UPDATE merge_requests SET merge_user_id = NULL, updated_at = now()
          WHERE id = $1 AND state <> 'merged' AND merge_user_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM merge_request_auto_merges WHERE merge_request_id = $1)`,
        [rows[0].merge_request_id],
      );
      return true;
    },

    /**
     * The car's adder becomes the merge request's merge user (GitLab's merge_user, with
     * auto_merge_enabled and the merge_train strategy, while the request is a car).
     */
    async nameMergeUser(mergeRequestId: number, userId: number | null, tx: Queryable): Promise<void> {
      await tx.query(`UPDATE merge_requests SET merge_user_id = $2, merge_error = NULL, updated_at = now() WHERE id = $1 AND state = 'opened'`, [mergeRequestId, userId]);
    },

    /** Which pipelines are merge train pipelines whose car is still on its train. */
    async carOfPipeline(pipelineId: number, tx?: Queryable): Promise<Car | undefined> {
      const { rows } = await on(db, tx).query<Car>(`SELECT ${COLUMNS} FROM merge_trains WHERE pipeline_id = $1 AND status = ANY($2::text[]) LIMIT 1`, [pipelineId, ON_TRAIN_STATUSES]);
      return rows[0] ? normalize(rows[0]) : undefined;
    },
  };
}

export type MergeTrainsRepository = ReturnType<typeof createMergeTrainsRepository>;
