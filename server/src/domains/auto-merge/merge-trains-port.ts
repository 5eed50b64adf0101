/**
 * What auto-merge needs from merge trains, which live in their own domain. The train
 * strategies (add_to_merge_train_when_checks_pass, merge_train) are chosen here like any
 * other; when their checks pass the request is handed to the train through this port instead
 * of being merged. Without a train domain wired in (NO_MERGE_TRAINS) no project has trains, so
 * the train strategies are never available.
 */
import type { Queryable } from '../../platform/db/database.js';

export interface MergeTrainCarRequest {
  mergeRequestId: number;
  projectId: number;
  targetBranch: string;
  /** the user who set auto-merge: the car merges as them */
  userId: number;
  /** the source head the car is for */
  sha: string;
  squash: boolean | null;
  shouldRemoveSourceBranch: boolean | null;
  mergeCommitMessage: string | null;
  squashCommitMessage: string | null;
}

export interface MergeTrainsPort {
  /** The project runs merge trains (a project setting that needs merged results pipelines). */
  enabled(projectId: number): Promise<boolean>;
  /** The request's car while it is on a train (who added it: the car merges as them), else null. */
  carOf(mergeRequestId: number, tx?: Queryable): Promise<{ userId: number | null } | null>;
  /**
   * Adds the request to the end of its target branch's train, once (a request that is already a
   * car keeps its place, and is named the car's merge user again). Called in the transaction that hands it over; auto-merge's
   * setting is removed in that same transaction, the train owns the request from then on.
   */
  add(car: MergeTrainCarRequest, tx: Queryable): Promise<void>;
  /**
   * Takes the request off its train, if it is on one (cancelling auto-merge of a train strategy:
   * 'Remove from merge train'), in the caller's transaction; answers whether a car left.
   */
  remove(mergeRequestId: number, userId: number, tx: Queryable): Promise<boolean>;
}

/** No train domain: no project has merge trains. */
export const NO_MERGE_TRAINS: MergeTrainsPort = {
  enabled: async () => false,
  carOf: async () => null,
  add: async () => {
    throw new Error('merge trains are not available');
  },
  remove: async () => false,
};
