/**
 * Auto-merge: strategies (strategy.ts), the rules that merge or abort it (rules.ts), the
 * setting (auto-merge.repository.ts, migration 0044) and the service that sets, cancels and
 * evaluates it (auto-merge.service.ts). Merge trains plug in through merge-trains-port.ts.
 */
export { createAutoMergeRepository, type AutoMergeRepository, type AutoMergeSetting } from './auto-merge.repository.js';
export { CANNOT_CANCEL, createAutoMergeService, EVALUATE_JOB, type AutoMergeService, type AutoMergeState } from './auto-merge.service.js';
export { NO_MERGE_TRAINS, type MergeTrainCarRequest, type MergeTrainsPort } from './merge-trains-port.js';
export { ABORT_REASONS, abortReason, isAutoMergeSet, mergeDecision, shownAutoMergeStrategy } from './rules.js';
export * from './strategy.js';
