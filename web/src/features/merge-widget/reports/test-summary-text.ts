/**
 * The texts of the merge request's test summary, as GitLab's test report widget builds them:
 * "Test summary: 1 failed and 1 fixed test result, 4 total tests", "no changed test results"
 * when nothing changed, and per suite "rspec: …" or "An error occurred while loading rspec results".
 */
import type { PipelineTestCase } from '../../pipelines';

/** A compared case is GitLab's TestCaseEntity, as the pipeline's test report lists it. */
export type ComparedTestCase = PipelineTestCase;

export interface ComparisonSummary {
  total: number;
  resolved: number;
  failed: number;
  errored: number;
}

export interface ComparedSuite {
  name: string;
  status: 'success' | 'failed' | 'error';
  summary: ComparisonSummary;
  new_failures: ComparedTestCase[];
  existing_failures: ComparedTestCase[];
  resolved_failures: ComparedTestCase[];
  new_errors: ComparedTestCase[];
  existing_errors: ComparedTestCase[];
  resolved_errors: ComparedTestCase[];
}

/** GitLab's TestReportsComparerEntity (`test_reports.json`). */
export interface TestReportsComparison {
  status: 'success' | 'failed' | 'error';
  summary: ComparisonSummary;
  suites: ComparedSuite[];
}

export const TEST_SUMMARY = {
  label: 'Test summary',
  loading: 'Test summary results are loading',
  error: 'Test summary failed to load results',
  newHeader: 'New',
  fixedHeader: 'Fixed',
  fullReport: 'Full report',
  viewDetails: 'View details',
  reportError: 'An error occurred while loading report',
} as const;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** GitLab's textBuilder: the failed and errored clause, the fixed one, and the total. */
export function resultsText({ failed, errored, resolved, total }: Partial<ComparisonSummary>): string {
  const failedText = failed ? `${failed} failed` : null;
  const erroredText = errored ? plural(errored, 'error', 'errors') : null;
  const combined = failedText && erroredText ? `${failedText}, ${erroredText}` : (failedText ?? erroredText);
  const resolvedText = resolved ? plural(resolved, 'fixed test result', 'fixed test results') : null;
  const totalText = total ? plural(total, 'total test', 'total tests') : null;
  let results = 'no changed test results';
  if (combined) results = resolvedText ? `${combined} and ${resolvedText}` : combined;
  else if (resolvedText) results = resolvedText;
  return `${results}, ${totalText}`;
}

/** The collapsed line: "Test summary: …". */
export const summaryText = (summary: ComparisonSummary) => `${TEST_SUMMARY.label}: ${resultsText(summary)}`;

/** One suite's row. */
export function suiteText(suite: Pick<ComparedSuite, 'name' | 'status' | 'summary'>): string {
  if (!suite.name) return TEST_SUMMARY.reportError;
  if (suite.status === 'error') return `An error occurred while loading ${suite.name} results`;
  return `${suite.name}: ${resultsText(suite.summary)}`;
}

export type CaseSection = 'new' | 'existing' | 'fixed';

/** A suite's cases as the widget lists them: new failures and errors first, then existing ones, then the fixed. */
export function suiteCases(suite: ComparedSuite): { section: CaseSection; testCase: ComparedTestCase }[] {
  return [
    ...[...suite.new_failures, ...suite.new_errors].map((testCase) => ({ section: 'new' as const, testCase })),
    ...[...suite.existing_failures, ...suite.existing_errors].map((testCase) => ({ section: 'existing' as const, testCase })),
    ...[...suite.resolved_failures, ...suite.resolved_errors].map((testCase) => ({ section: 'fixed' as const, testCase })),
  ];
}

/** The collapsed icon: a warning when tests failed, failed when a suite errored, success otherwise. */
export function summaryTone(comparison: TestReportsComparison): 'warning' | 'failed' | 'success' {
  if (comparison.status === 'failed') return 'warning';
  if (comparison.suites.some((suite) => suite.status === 'error')) return 'failed';
  return 'success';
}

/** GitLab's formatFilePath: a case's file without its leading `./` or `/`, to append to a blob path. */
export const formatFilePath = (file: string) => file.replace(/^\.?\/*/, '');
