/**
 * Which car leaves a merge train, and when: Tributary's rule, stricter than GitLab's.
 *
 * Each car's pipeline tests the target merged with every car ahead and the car itself, so a
 * failure of car N may be N's own or caused by a car ahead (alone, or only together with N).
 * GitLab removes N the moment its pipeline fails, even while a car ahead is still running and
 * may be what broke the combined build; N's author then has to add it again. Tributary only
 * ejects a car for a failure that is its own:
 *
 * - A failed car is HELD while any car ahead has not passed.
 * - When every car ahead has passed, the failure is its own: it is EJECTED (the system note
 *   names the failed job and the last lines of its log).
 * - When a car ahead fails, that car is judged first by the same rule; when it leaves, every car
 *   behind it restarts on the train without it (its base changed) and keeps its place, so a held
 *   car gets a fresh pipeline instead of being thrown out.
 * - Only the front car merges, once its pipeline passed (cars behind wait, passed or not).
 *
 * Retries come first: a job the project marks retryable (`retry: when`) is retried by the
 * pipeline itself, so its pipeline is not failed until those retries are spent.
 *
 * Pure: the refresh (train-refresh.ts) gives the pipelines' outcomes in train order.
 */
export type CarOutcome = 'running' | 'passed' | 'failed';

export type CarDecision = 'merge' | 'eject' | 'hold' | 'wait';

/** A pipeline status as the rule sees it: GitLab's success; failed, canceled or skipped fail a car. */
export function carOutcome(pipelineStatus: string | null): CarOutcome {
  if (pipelineStatus === 'success') return 'passed';
  if (pipelineStatus === 'failed' || pipelineStatus === 'canceled' || pipelineStatus === 'skipped') return 'failed';
  return 'running';
}

/**
 * One decision per car, in train order: `merge` (the front car passed), `eject` (failed, every
 * car ahead passed), `hold` (failed, a car ahead has not passed yet), `wait` (running, or passed
 * behind the front).
 */
export function trainDecisions(outcomes: readonly CarOutcome[]): CarDecision[] {
  let allAheadPassed = true;
  return outcomes.map((outcome, index) => {
    let decision: CarDecision;
    if (outcome === 'failed') decision = allAheadPassed ? 'eject' : 'hold';
    else if (outcome === 'passed' && index === 0) decision = 'merge';
    else decision = 'wait';
    if (outcome !== 'passed') allAheadPassed = false;
    return decision;
  });
}
