/**
 * Which auto-merge strategies a merge request offers, and the one the page and the API pick.
 * GitLab's AutoMergeService: each strategy's available_for?, and the widget's fixed priority
 * (add to the merge train when checks pass, then the merge train, then merge when checks pass).
 * Pure: the service gathers the facts.
 */

export const MERGE_WHEN_CHECKS_PASS = 'merge_when_checks_pass';
export const ADD_TO_MERGE_TRAIN_WHEN_CHECKS_PASS = 'add_to_merge_train_when_checks_pass';
export const MERGE_TRAIN = 'merge_train';
/** The older name of merge_when_checks_pass that clients still send. */
export const MERGE_WHEN_PIPELINE_SUCCEEDS = 'merge_when_pipeline_succeeds';
/** The older name of add_to_merge_train_when_checks_pass (GraphQL's MergeStrategyEnum still has it). */
export const ADD_TO_MERGE_TRAIN_WHEN_PIPELINE_SUCCEEDS = 'add_to_merge_train_when_pipeline_succeeds';

/** The current name of a strategy a client sends under its older name. */
const OLDER_NAMES: Readonly<Record<string, AutoMergeStrategy>> = {
  [MERGE_WHEN_PIPELINE_SUCCEEDS]: 'merge_when_checks_pass',
  [ADD_TO_MERGE_TRAIN_WHEN_PIPELINE_SUCCEEDS]: 'add_to_merge_train_when_checks_pass',
};

export type AutoMergeStrategy = typeof MERGE_WHEN_CHECKS_PASS | typeof ADD_TO_MERGE_TRAIN_WHEN_CHECKS_PASS | typeof MERGE_TRAIN;

/** The fixed priority the page uses to pick among the available strategies. */
export const STRATEGY_PRIORITY: readonly AutoMergeStrategy[] = [ADD_TO_MERGE_TRAIN_WHEN_CHECKS_PASS, MERGE_TRAIN, MERGE_WHEN_CHECKS_PASS];

export interface StrategyFacts {
  open: boolean;
  /** the user may merge into the target branch (GitLab's can_be_merged_by?) */
  canMerge: boolean;
  /** GitLab's broken?: no commits, or a branch is missing */
  broken: boolean;
  /** the project runs merge trains (needs merged results pipelines) */
  mergeTrainsEnabled: boolean;
  /** every merge check passes now */
  mergeableNow: boolean;
  /** the identifiers of the merge checks that fail now */
  failedChecks: readonly string[];
  /** the head pipeline has not completed */
  pipelineInProgress: boolean;
  /** the head pipeline completed (any final status); merge_train needs one */
  pipelineComplete: boolean;
}

/**
 * The checks an auto-merge may wait for (GitLab's skipped_mergeable_checks when auto-merge is
 * requested with a "when checks pass" strategy): the pipeline, approvals, draft, blocking merge
 * requests, threads and requested changes can all still pass by themselves. Any other failing
 * check (a conflict, a needed rebase, the title pattern) needs someone to act, so no auto-merge
 * is offered; a train strategy also waits out a conflict, which the train commit settles.
 */
const WAITABLE_CHECKS: ReadonlySet<string> = new Set(['CI_MUST_PASS', 'CI_STILL_RUNNING', 'NOT_APPROVED', 'DRAFT_STATUS', 'BLOCKED_STATUS', 'DISCUSSIONS_NOT_RESOLVED', 'REQUESTED_CHANGES']);

export function mayWaitFor(failedChecks: readonly string[], trainStrategy: boolean): boolean {
  return failedChecks.every((check) => WAITABLE_CHECKS.has(check) || (trainStrategy && check === 'CONFLICT'));
}

/**
 * The available strategies, in priority order. GitLab: none when the request may be merged
 * right now and no pipeline is running (then the plain Merge applies), and none of the "when
 * checks pass" ones while a check fails that cannot pass by itself; merge_when_checks_pass
 * only without merge trains; the train strategies only with them, merge_train (add now) once
 * the pipeline completed and the checks pass.
 */
export function availableStrategies(facts: StrategyFacts): AutoMergeStrategy[] {
  if (!facts.open || !facts.canMerge || facts.broken) return [];
  const waitsForSomething = !facts.mergeableNow || facts.pipelineInProgress;
  const available = new Set<AutoMergeStrategy>();
  if (facts.mergeTrainsEnabled) {
    if (waitsForSomething) {
      if (mayWaitFor(facts.failedChecks, true)) available.add(ADD_TO_MERGE_TRAIN_WHEN_CHECKS_PASS);
    } else if (facts.pipelineComplete) available.add(MERGE_TRAIN);
  } else if (waitsForSomething && mayWaitFor(facts.failedChecks, false)) {
    available.add(MERGE_WHEN_CHECKS_PASS);
  }
  return STRATEGY_PRIORITY.filter((strategy) => available.has(strategy));
}

/** The preferred strategy: the first available one in STRATEGY_PRIORITY, or null. */
export function preferredStrategy(available: readonly AutoMergeStrategy[]): AutoMergeStrategy | null {
  return STRATEGY_PRIORITY.find((strategy) => available.includes(strategy)) ?? null;
}

/**
 * The strategy for a request to set auto-merge: the one asked for (the older
 * merge_when_pipeline_succeeds name means merge_when_checks_pass, and
 * add_to_merge_train_when_pipeline_succeeds add_to_merge_train_when_checks_pass) when it is available, else
 * the preferred one; null when none is available or the one asked for is unknown or unavailable.
 */
export function chooseStrategy(available: readonly AutoMergeStrategy[], requested?: string | null): AutoMergeStrategy | null {
  if (requested === undefined || requested === null || requested === '') return preferredStrategy(available);
  const normalized = OLDER_NAMES[requested] ?? requested;
  return (available as readonly string[]).includes(normalized) ? (normalized as AutoMergeStrategy) : null;
}

export function isTrainStrategy(strategy: AutoMergeStrategy): boolean {
  return strategy === MERGE_TRAIN || strategy === ADD_TO_MERGE_TRAIN_WHEN_CHECKS_PASS;
}
