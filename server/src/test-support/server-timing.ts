import type { Config } from '../platform/config.js';

/**
 * The waits of a test server, in-process (startTestServer) or a child process
 * (startServerProcess), unless a test gives its own:
 *
 * - `runnerLongPollSeconds`: 1 instead of GitLab Workhorse's 50. A test's runner asks for a job
 *   and, when none is pending, checks what it waits for (a merge, a pipeline's status) only once
 *   the request returns; with 50 s every such check after the last job cost 50 s (a merge train
 *   settled after a restart: 50 s per step). A job that becomes pending still ends the wait at once.
 * - `jobPollMs`: 500 instead of 5000. How often an idle worker looks for jobs that no
 *   notification announces (a retry's backoff over, a scheduled job due, a lease ended), and how
 *   often a server settles merges another process died in.
 *
 * Both are the configuration every server reads (TRIBUTARY_RUNNER_LONG_POLL_SECONDS,
 * TRIBUTARY_JOB_POLL_MS); no code path is taken only by tests.
 */
export const TEST_SERVER_TIMING = { runnerLongPollSeconds: 1, jobPollMs: 500 } satisfies Partial<Config>;

/** The same, as the environment of a `tributary start` child process. */
export const TEST_SERVER_TIMING_ENV: Record<string, string> = {
  TRIBUTARY_RUNNER_LONG_POLL_SECONDS: String(TEST_SERVER_TIMING.runnerLongPollSeconds),
  TRIBUTARY_JOB_POLL_MS: String(TEST_SERVER_TIMING.jobPollMs),
};
