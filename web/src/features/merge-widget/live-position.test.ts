import { describe, expect, it } from 'vitest';
import type { WidgetResult } from './api';
import { withLivePosition } from './live-position';
import { openMergeRequestWidget as widgetData, widgetProjectOf as widgetProject } from '@tributary/contracts/merge-widget.fixture';

const ADA = { id: 'gid://gitlab/User/2', username: 'ada', name: 'Ada Lovelace', webUrl: '/ada', avatarUrl: null };
const CAR = 'gid://gitlab/MergeTrains::Car/5';
const result = (index: number | null, count: number | null): WidgetResult => ({
  project: widgetProject(widgetData({ id: 'gid://gitlab/MergeRequest/70', mergeTrainCar: index === null ? null : { id: CAR, index, user: ADA }, mergeTrainsCount: count })),
  pollIntervalMs: null,
});
const message = (car: { id: string; index: number | null } | null, count: number | null, id = 'gid://gitlab/MergeRequest/70') => ({
  mergeRequestMergeStatusUpdated: { id, detailedMergeStatus: 'MERGEABLE', commitCount: 1, mergeTrainCar: car, mergeTrainsCount: count },
});

describe('withLivePosition', () => {
  it('moves the car up when one ahead merged, keeping who added it', () => {
    const next = withLivePosition(result(1, 2), message({ id: CAR, index: 0 }, 1));
    expect(next?.project.mergeRequest?.mergeTrainCar).toEqual({ id: CAR, index: 0, user: ADA });
    expect(next?.project.mergeRequest?.mergeTrainsCount).toBe(1);
  });

  it('takes the car away when it left the train', () => {
    expect(withLivePosition(result(0, 1), message(null, 0))?.project.mergeRequest?.mergeTrainCar).toBeNull();
  });

  it('changes nothing for the same position, another merge request, or a message without position fields', () => {
    const cached = result(1, 2);
    expect(withLivePosition(cached, message({ id: CAR, index: 1 }, 2))).toBe(cached);
    expect(withLivePosition(cached, message({ id: CAR, index: 0 }, 1, 'gid://gitlab/MergeRequest/71'))).toBe(cached);
    expect(withLivePosition(cached, { mergeRequestMergeStatusUpdated: { id: 'gid://gitlab/MergeRequest/70', detailedMergeStatus: null, commitCount: 1 } } as never)).toBe(cached);
    expect(withLivePosition(undefined, message(null, 0))).toBeUndefined();
  });
});
