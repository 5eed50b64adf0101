/**
 * The steps of a merge, named so that a test can stop the process between any two of them.
 *
 * TRIBUTARY_TEST_CRASH_AT=<step> (read by platform/config.ts, honoured only when
 * NODE_ENV=test) makes the server SIGKILL itself when a merge reaches that step: the fault
 * tests start a real `tributary start` with it, merge, and restart on the same data directory
 * and database to check reconciliation. Without both variables the hook does nothing, and it
 * never does anything in production builds started the documented way (NODE_ENV is not "test").
 */
export const MERGE_STEPS = [
  /** the squash and merge commits are written (unreferenced objects), no intent yet */
  'merge:commits-written',
  /** the intent is committed as pending, the target branch has not moved */
  'merge:intent-recorded',
  /** the target branch moved (compare-and-swap); the transaction finalizing the intent is not committed, so it still says pending */
  'merge:ref-moved',
  /** the merge request is merged; the push event and source branch deletion are a queued job */
  'merge:finalized',
] as const;
export type MergeStep = (typeof MERGE_STEPS)[number];

export type StepHook = (step: MergeStep) => void | Promise<void>;

export const noSteps: StepHook = () => undefined;

export function isMergeStep(value: string): value is MergeStep {
  return (MERGE_STEPS as readonly string[]).includes(value);
}

/** The production hook: inert unless configured; kills this process (no cleanup, like a power cut) at the step. */
export function crashHook(crashAt: string | undefined, logger: { warn(obj: object, msg: string): void }): StepHook {
  // merge train steps have their own hook (domains/merge-trains/train-refresh.ts)
  if (!crashAt || crashAt.startsWith('train:')) return noSteps;
  if (!isMergeStep(crashAt)) throw new Error(`TRIBUTARY_TEST_CRASH_AT must be one of ${MERGE_STEPS.join(', ')}`);
  logger.warn({ crashAt }, 'test crash hook armed: this process will SIGKILL itself during a merge');
  return (step) => {
    if (step === crashAt) process.kill(process.pid, 'SIGKILL');
  };
}
