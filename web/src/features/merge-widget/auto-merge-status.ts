import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { MSG } from './messages';

const TRAIN_STRATEGIES: ReadonlySet<string> = new Set(['merge_train', 'add_to_merge_train_when_checks_pass']);

export interface AutoMergeStatus {
  title: string;
  /** GitLab's MergeTrainPosition line, while the request is on a train */
  position: string | null;
  /** GitLab labels the cancel 'Remove from merge train' for a merge-train strategy */
  cancelLabel: string;
}

/**
 * What the 'auto-merge enabled' panel says, as GitLab's auto-merge mixin and
 * MergeTrainPosition write it. A request on its train ('Added to the merge train by …') says
 * where: the front car "A new merge train has started…", any other "#n of total in queue".
 * Waiting to be added, it says whether it will start the train or join one.
 */
export function autoMergeStatus(data: Pick<MergeRequestWidgetData, 'autoMergeStrategy' | 'mergeUser' | 'mergeTrainCar' | 'mergeTrainsCount'>): AutoMergeStatus {
  const car = data.mergeTrainCar;
  if (car) {
    return {
      title: t(MSG.addedToMergeTrainBy, { mergeAuthor: car.user?.name ?? data.mergeUser?.name ?? '' }),
      position: trainPosition(car.index, data.mergeTrainsCount),
      cancelLabel: t(MSG.removeFromMergeTrain),
    };
  }
  const mergeAuthor = data.mergeUser?.name ?? '';
  const strategy = data.autoMergeStrategy ?? '';
  const cancelLabel = t(TRAIN_STRATEGIES.has(strategy) ? MSG.removeFromMergeTrain : MSG.cancelAutoMerge);
  if (strategy === 'merge_train') return { title: t(MSG.addedToMergeTrainBy, { mergeAuthor }), position: null, cancelLabel };
  if (strategy === 'add_to_merge_train_when_checks_pass') {
    return { title: t(data.mergeTrainsCount ? MSG.autoMergeSetByTrainAdd : MSG.autoMergeSetByTrain, { mergeAuthor }), position: null, cancelLabel };
  }
  return { title: t(MSG.autoMergeSetBy, { mergeAuthor }), position: null, cancelLabel };
}

function trainPosition(index: number | null, count: number | null): string | null {
  if (index === 0) return t(MSG.mergeTrainFirst);
  if (index === null || count === null) return null;
  return t(MSG.mergeTrainPosition, { mergeTrainPosition: index + 1, total: count });
}
