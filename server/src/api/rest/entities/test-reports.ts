/** GitLab's TestReportEntity, TestSuiteEntity, TestCaseEntity, TestReportSummaryEntity and TestReportsComparerEntity. */
import { seconds, sortTestCases } from '../../../domains/ci-reports/test-reports.js';
import type { StoredTestCase, SuiteCounts } from '../../../domains/ci-reports/ci-reports.repository.js';
import type { summarize } from '../../../domains/ci-reports/ci-reports.service.js';
import type { compareTestReports } from '../../../domains/ci-reports/test-reports.js';
import type { UrlBuilder } from './users.js';

export function testCaseEntity(testCase: StoredTestCase, projectPath: string, urls: UrlBuilder) {
  return {
    status: testCase.status,
    // GitLab's `default: "(No name)"` for a case without a name
    name: testCase.name === '' ? '(No name)' : testCase.name,
    classname: testCase.classname,
    file: testCase.file,
    execution_time: testCase.execution_time,
    system_output: testCase.system_output,
    stack_trace: null,
    recent_failures: null,
    // a case with `[[ATTACHMENT|path]]` links the file in its job's artifacts
    ...(testCase.attachment ? { attachment_url: urls.web(`${projectPath}/-/jobs/${testCase.job_id}/artifacts/file/${testCase.attachment}`) } : {}),
  };
}

const counts = (suite: SuiteCounts) => ({
  total_time: seconds(suite.total_time),
  total_count: suite.total_count,
  success_count: suite.success_count,
  failed_count: suite.failed_count,
  skipped_count: suite.skipped_count,
  error_count: suite.error_count,
});

export function testReportSummaryEntity(summary: ReturnType<typeof summarize>) {
  return {
    total: summary.total,
    test_suites: summary.suites.map((suite) => ({ name: suite.suite_name, ...counts(suite), build_ids: suite.build_ids, suite_error: suite.suite_error })),
  };
}

export function testReportEntity(suites: readonly SuiteCounts[], cases: readonly StoredTestCase[], projectPath: string, urls: UrlBuilder) {
  const bySuite = new Map<string, StoredTestCase[]>();
  for (const testCase of cases) bySuite.set(testCase.suite_name, [...(bySuite.get(testCase.suite_name) ?? []), testCase]);
  const total = suites.reduce(
    (sum, suite) => ({
      total_time: sum.total_time + suite.total_time,
      total_count: sum.total_count + suite.total_count,
      success_count: sum.success_count + suite.success_count,
      failed_count: sum.failed_count + suite.failed_count,
      skipped_count: sum.skipped_count + suite.skipped_count,
      error_count: sum.error_count + suite.error_count,
    }),
    { total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0 },
  );
  return {
    ...total,
    total_time: seconds(total.total_time),
    test_suites: suites.map((suite) => ({
      name: suite.suite_name,
      ...counts(suite),
      suite_error: suite.suite_error,
      test_cases: sortTestCases(bySuite.get(suite.suite_name) ?? []).map((testCase) => testCaseEntity(testCase, projectPath, urls)),
    })),
  };
}

export function testReportsComparerEntity(comparison: ReturnType<typeof compareTestReports<StoredTestCase>>, projectPath: string, urls: UrlBuilder) {
  const cases = (list: StoredTestCase[]) => list.map((testCase) => testCaseEntity(testCase, projectPath, urls));
  return {
    status: comparison.status,
    summary: comparison.summary,
    suites: comparison.suites.map((suite) => ({
      name: suite.name,
      status: suite.status,
      summary: suite.summary,
      new_failures: cases(suite.new_failures),
      existing_failures: cases(suite.existing_failures),
      resolved_failures: cases(suite.resolved_failures),
      new_errors: cases(suite.new_errors),
      existing_errors: cases(suite.existing_errors),
      resolved_errors: cases(suite.resolved_errors),
    })),
  };
}
