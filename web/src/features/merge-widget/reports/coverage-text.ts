/**
 * The widget's coverage line, as GitLab's pipeline container words it: "Test coverage 80.00%
 * (4.50%) from 2 jobs", the delta's tooltip saying what merging does to the overall coverage,
 * and the jobs' tooltip saying how the pipeline's value was computed.
 */

export const coverageText = (coverage: number) => `Test coverage ${coverage.toFixed(2)}%`;

export const jobsText = (count: number) => `from ${count} ${count === 1 ? 'job' : 'jobs'}`;

/** GitLab's coverageDeltaClass and its tooltip: up is good, down is bad, "0.00" changes nothing. */
export function deltaMeaning(delta: string): { tone: 'success' | 'failed' | 'neutral'; description: string } {
  const value = Number.parseFloat(delta) || 0;
  if (value > 0) return { tone: 'success', description: 'This change will increase the overall test coverage if merged.' };
  if (value < 0) return { tone: 'failed', description: 'This change will decrease the overall test coverage if merged.' };
  return { tone: 'neutral', description: 'This change will not change the overall test coverage if merged.' };
}

/** GitLab's pipelineCoverageTooltipDescription. */
export const jobsDescription = (count: number) =>
  count === 1
    ? `Test coverage value for this pipeline was calculated by the coverage value of ${count} job.`
    : `Test coverage value for this pipeline was calculated by averaging the resulting coverage values of ${count} jobs.`;
