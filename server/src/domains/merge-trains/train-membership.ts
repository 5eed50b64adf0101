/**
 * Boarding and leaving a train, inside the caller's transaction: the steps every way onto or off
 * a train shares (the REST and GraphQL 'Add to merge train' and 'Remove from merge train'
 * through merge-trains.service.ts, and auto-merge's train strategies through
 * auto-merge-port.ts), so the lock, the note and the refresh are the same whoever asks.
 */
import type { Queryable } from '../../platform/db/database.js';
import type { Car } from './car.js';
import type { MergeTrainsRepository } from './merge-trains.repository.js';
import type { TrainRefresh } from './train-refresh.js';

export interface Boarding {
  merge_request_id: number;
  /** who added it: the car merges as them */
  user_id: number;
  target_project_id: number;
  target_branch: string;
  squash: boolean;
  /** the source head the car carries */
  source_sha: string;
  /** the merge options chosen with it (null: the defaults), used for its train commit and its merge */
  merge_commit_message: string | null;
  squash_commit_message: string | null;
  should_remove_source_branch: boolean | null;
}

export function trainMembership(deps: {
  cars: Pick<MergeTrainsRepository, 'lockTrain' | 'insert' | 'indexOf' | 'remove' | 'nameMergeUser'>;
  refresh: Pick<TrainRefresh, 'note' | 'enqueueRefresh' | 'announceTrain'>;
}) {
  const { cars, refresh } = deps;
  return {
    /**
     * Puts the request at the back of its train, with the note GitLab writes ("started a merge
     * train" for the first car, its position otherwise), and enqueues the refresh that builds its
     * train commit and pipeline. Additions to one train are serialized by the train's lock, so
     * cars added at once keep one order: the order of their ids. The adder becomes the request's
     * merge user (its auto-merge is the train's, merge_train, as GitLab shows it), and every car
     * on the train hears the new count. Throws a unique violation when the request already has a car.
     */
    async board(boarding: Boarding, tx: Queryable): Promise<Car> {
      await cars.lockTrain(boarding.target_project_id, boarding.target_branch, tx);
      const car = await cars.insert(boarding, tx);
      const index = await cars.indexOf(car, tx);
      await cars.nameMergeUser(car.merge_request_id, boarding.user_id, tx);
      await refresh.note(car, boarding.user_id, index === 0 ? 'started' : 'added', index === 0 ? null : `#${index + 1}`, tx);
      await refresh.announceTrain(car, tx);
      await refresh.enqueueRefresh(car, tx);
      return car;
    },

    /**
     * Takes the car off ('removed this merge request from the merge train'); the refresh restarts
     * the cars behind without it, and every car (and the one that left) hears its new position. Answers whether this call removed it. Its pipeline is the
     * caller's to cancel once the removal committed.
     */
    async leave(car: Car, userId: number, tx: Queryable): Promise<boolean> {
      if (!(await cars.remove(car.id, tx))) return false;
      await refresh.note(car, userId, 'removed', null, tx);
      await refresh.announceTrain(car, tx, car);
      await refresh.enqueueRefresh(car, tx);
      return true;
    },
  };
}

export type TrainMembership = ReturnType<typeof trainMembership>;
