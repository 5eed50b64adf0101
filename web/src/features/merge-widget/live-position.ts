import type { MergeStatusUpdatedPayload } from '@tributary/contracts/merge-widget';
import type { WidgetResult } from './api';

/**
 * A mergeRequestMergeStatusUpdated message carries the merge train position (GitLab's
 * MergeTrainPosition: the car's index and the train's car count). The widget shows it at once,
 * before the refetch every message also starts brings the rest: a car ahead that merged or
 * left moves this one up without a reload. Pure: the cached widget answer with the message's
 * position in it, or the same object when the message has nothing new for it.
 */
export function withLivePosition(result: WidgetResult | undefined, message: MergeStatusUpdatedPayload | undefined): WidgetResult | undefined {
  const update = message?.mergeRequestMergeStatusUpdated;
  const current = result?.project.mergeRequest;
  if (!result || !current || !update || update.id !== current.id) return result;
  // a field the server left out of the message (an older server) keeps the cached value
  if (!('mergeTrainCar' in update) || !('mergeTrainsCount' in update)) return result;
  const car = update.mergeTrainCar;
  const mergeTrainCar = car === null ? null : { id: car.id, index: car.index, user: current.mergeTrainCar?.id === car.id ? current.mergeTrainCar.user : null };
  if (current.mergeTrainCar?.id === mergeTrainCar?.id && current.mergeTrainCar?.index === mergeTrainCar?.index && current.mergeTrainsCount === update.mergeTrainsCount) return result;
  return { ...result, project: { ...result.project, mergeRequest: { ...current, mergeTrainCar, mergeTrainsCount: update.mergeTrainsCount } } };
}
