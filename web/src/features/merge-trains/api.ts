import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { UserBasic } from '../../lib/gitlab-types';

/** GitLab's merge train car entity (GET /projects/:id/merge_trains). */
export interface MergeTrainCar {
  id: number;
  merge_request: { id: number; iid: number; title: string; state: string; web_url: string } | null;
  user: UserBasic | null;
  pipeline: { id: number; sha: string; ref: string; status: string; web_url: string } | null;
  created_at: string;
  updated_at: string;
  target_branch: string;
  status: 'idle' | 'stale' | 'fresh' | 'merging' | 'merged' | 'skip_merged';
  merged_at: string | null;
  duration: number | null;
}

export type TrainScope = 'active' | 'complete';

export const MERGED_PER_PAGE = 20;
/** The queue moves as pipelines run: an open page reads it again this often. */
const POLL_MS = 5_000;

export const mergeTrainKeys = {
  all: (projectId: number) => ['projects', projectId, 'merge-trains'] as const,
  list: (projectId: number, scope: TrainScope, page: number) => [...mergeTrainKeys.all(projectId), scope, page] as const,
};

/** The active cars of every train, front first (one page of 100: GitLab runs at most 20 pipelines per train), or the merged history, newest first. */
export const mergeTrainCarsQuery = (projectId: number, scope: TrainScope, page: number) =>
  queryOptions({
    queryKey: mergeTrainKeys.list(projectId, scope, page),
    queryFn: ({ signal }) =>
      api.getPage<MergeTrainCar>(`/projects/${projectId}/merge_trains`, {
        signal,
        query: scope === 'active' ? { scope, sort: 'asc', per_page: 100 } : { scope, sort: 'desc', page, per_page: MERGED_PER_PAGE },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS,
  });

/** Cars grouped by target branch, each train in queue order. Pure. */
export function byTargetBranch(cars: readonly MergeTrainCar[]): Array<{ targetBranch: string; cars: MergeTrainCar[] }> {
  const trains = new Map<string, MergeTrainCar[]>();
  for (const car of cars) {
    const train = trains.get(car.target_branch) ?? [];
    train.push(car);
    trains.set(car.target_branch, train);
  }
  return [...trains.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([targetBranch, list]) => ({ targetBranch, cars: list }));
}

/** What a car's status says on the page. */
export const CAR_STATUS_TEXT: Record<MergeTrainCar['status'], string> = {
  idle: 'Waiting for a pipeline',
  stale: 'Restarting',
  fresh: 'Pipeline running',
  merging: 'Merging',
  merged: 'Merged',
  skip_merged: 'Merged immediately',
};
