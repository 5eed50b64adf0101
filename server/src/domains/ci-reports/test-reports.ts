/**
 * The rules of pipelines' test reports, pure (GitLab's Gitlab::Ci::Reports::TestSuite,
 * TestSuiteComparer and TestReportsComparer): suite names, the order cases are shown in, totals,
 * and the comparison of a merge request's head pipeline with its base.
 */
import type { TestCaseStatus } from './junit-parser.js';

export interface TestCaseLike {
  suite_name: string;
  status: TestCaseStatus;
  name: string;
  classname: string;
  execution_time: number;
}

/**
 * A job's test suite name: its name without a `parallel` suffix (`rspec 1/3`, `rspec [a, b]`),
 * GitLab's CommitStatus#group_name.
 */
export function testSuiteName(jobName: string): string {
  return jobName.replace(/([\b\s:]+((\[.*\])|(\d+[\s:/\\]+\d+))){1,3}\s*$/, '').trim();
}

const STATUS_ORDER: readonly TestCaseStatus[] = ['error', 'failed', 'success', 'skipped'];

/** GitLab's TestSuite#sorted: errors, failures, successes, skipped; each by execution time, longest first. */
export function sortTestCases<T extends Pick<TestCaseLike, 'status' | 'execution_time'>>(cases: readonly T[]): T[] {
  return cases
    .map((testCase, index) => ({ testCase, index }))
    .sort((a, b) => STATUS_ORDER.indexOf(a.testCase.status) - STATUS_ORDER.indexOf(b.testCase.status) || b.testCase.execution_time - a.testCase.execution_time || a.index - b.index)
    .map(({ testCase }) => testCase);
}

/** A sum of seconds without floating-point noise (0.1 + 0.2 is 0.3). */
export const seconds = (value: number) => Number(value.toFixed(6));

/** GitLab's TestCase key: the suite, the class and the name. */
const keyOf = (testCase: Pick<TestCaseLike, 'suite_name' | 'classname' | 'name'>) => `${testCase.suite_name}\u0000${testCase.classname}\u0000${testCase.name}`;

export interface SuiteComparison<T> {
  name: string;
  status: 'success' | 'failed';
  summary: { total: number; resolved: number; failed: number; errored: number };
  new_failures: T[];
  existing_failures: T[];
  resolved_failures: T[];
  new_errors: T[];
  existing_errors: T[];
  resolved_errors: T[];
}

/** Cases shown per list: GitLab's DEFAULT_MAX_TESTS less what the lists before used, at least DEFAULT_MIN_TESTS. */
const MAX_TESTS = 100;
const MIN_TESTS = 10;
const room = (...used: { length: number }[]) => Math.max(MAX_TESTS - used.reduce((sum, list) => sum + list.length, 0), MIN_TESTS);

/**
 * One suite of the head pipeline against the suite of the same name in the base (TestSuiteComparer).
 * Only the base's failed and errored cases and the head's failed, errored and passed ones matter;
 * given `total` (the head suite's count of cases), `head` may hold just those.
 */
export function compareSuite<T extends TestCaseLike>(name: string, base: readonly T[], head: readonly T[], total = head.length): SuiteComparison<T> {
  const baseFailed = new Set(base.filter((c) => c.status === 'failed').map(keyOf));
  const baseErrored = new Set(base.filter((c) => c.status === 'error').map(keyOf));
  const failed = head.filter((c) => c.status === 'failed');
  const errored = head.filter((c) => c.status === 'error');
  const succeeded = head.filter((c) => c.status === 'success');
  const newFailures = failed.filter((c) => !baseFailed.has(keyOf(c)));
  const existingFailures = failed.filter((c) => baseFailed.has(keyOf(c)));
  const resolvedFailures = succeeded.filter((c) => baseFailed.has(keyOf(c)));
  const newErrors = errored.filter((c) => !baseErrored.has(keyOf(c)));
  const existingErrors = errored.filter((c) => baseErrored.has(keyOf(c)));
  const resolvedErrors = succeeded.filter((c) => baseErrored.has(keyOf(c)));
  return {
    name,
    status: failed.length + errored.length > 0 ? 'failed' : 'success',
    summary: {
      total,
      resolved: resolvedFailures.length + resolvedErrors.length,
      failed: newFailures.length + existingFailures.length,
      errored: newErrors.length + existingErrors.length,
    },
    new_failures: newFailures.slice(0, room()),
    existing_failures: existingFailures.slice(0, room(newFailures)),
    resolved_failures: resolvedFailures.slice(0, room(newFailures, existingFailures)),
    new_errors: newErrors.slice(0, room()),
    existing_errors: existingErrors.slice(0, room(newErrors)),
    resolved_errors: resolvedErrors.slice(0, room(newErrors, existingErrors)),
  };
}

/**
 * The whole comparison (TestReportsComparer): one entry per head suite, with totals over them.
 * `headTotals` (cases per head suite) lets `head` and `base` hold only the cases compareSuite reads.
 */
export function compareTestReports<T extends TestCaseLike>(base: readonly T[], head: readonly T[], headSuites: readonly string[], headTotals?: ReadonlyMap<string, number>) {
  const bySuite = (cases: readonly T[]) => {
    const map = new Map<string, T[]>();
    // appended in place: copying the list per case made the grouping quadratic (1,000 cases a suite)
    for (const testCase of cases) {
      const list = map.get(testCase.suite_name);
      if (list) list.push(testCase);
      else map.set(testCase.suite_name, [testCase]);
    }
    return map;
  };
  const baseSuites = bySuite(base);
  const headCases = bySuite(head);
  const suites = headSuites.map((name) => {
    const cases = headCases.get(name) ?? [];
    return compareSuite(name, baseSuites.get(name) ?? [], cases, headTotals?.get(name) ?? cases.length);
  });
  return {
    status: suites.some((suite) => suite.status === 'failed') ? ('failed' as const) : ('success' as const),
    summary: {
      total: suites.reduce((sum, suite) => sum + suite.summary.total, 0),
      resolved: suites.reduce((sum, suite) => sum + suite.summary.resolved, 0),
      failed: suites.reduce((sum, suite) => sum + suite.summary.failed, 0),
      errored: suites.reduce((sum, suite) => sum + suite.summary.errored, 0),
    },
    suites,
  };
}
