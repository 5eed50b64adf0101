import { describe, expect, it } from 'vitest';
import { compareTestReports, seconds, sortTestCases, testSuiteName, type TestCaseLike } from './test-reports.js';

const tc = (name: string, status: TestCaseLike['status'], execution_time = 0, suite_name = 'rspec'): TestCaseLike => ({ suite_name, status, name, classname: 'c', execution_time });

describe('test report rules (GitLab Gitlab::Ci::Reports)', () => {
  it.each([
    ['rspec', 'rspec'],
    ['rspec 1/3', 'rspec'],
    ['rspec 2:3', 'rspec'],
    ['test: [ruby, 3.2]', 'test'],
    ['unit tests', 'unit tests'],
  ])('the suite of job %j is %j', (job, suite) => {
    expect(testSuiteName(job)).toBe(suite);
  });

  it('shows errors, failures, successes, then skipped cases, the longest first', () => {
    const sorted = sortTestCases([tc('s', 'skipped', 9), tc('a', 'success', 1), tc('b', 'success', 2), tc('f', 'failed', 0), tc('e', 'error', 0)]);
    expect(sorted.map((c) => c.name)).toEqual(['e', 'f', 'b', 'a', 's']);
    expect(seconds(0.1 + 0.2)).toBe(0.3);
  });

  it('compares the head with the base: new, existing and resolved failures and errors', () => {
    const base = [tc('still fails', 'failed'), tc('fixed', 'failed'), tc('error fixed', 'error'), tc('still errors', 'error'), tc('ok', 'success')];
    const head = [tc('still fails', 'failed'), tc('fixed', 'success'), tc('error fixed', 'success'), tc('still errors', 'error'), tc('ok', 'failed'), tc('new error', 'error'), tc('new', 'success')];
    const result = compareTestReports(base, head, ['rspec']);
    expect(result.status).toBe('failed');
    expect(result.summary).toEqual({ total: 7, resolved: 2, failed: 2, errored: 2 });
    const [suite] = result.suites;
    expect({
      new_failures: suite!.new_failures.map((c) => c.name),
      existing_failures: suite!.existing_failures.map((c) => c.name),
      resolved_failures: suite!.resolved_failures.map((c) => c.name),
      new_errors: suite!.new_errors.map((c) => c.name),
      existing_errors: suite!.existing_errors.map((c) => c.name),
      resolved_errors: suite!.resolved_errors.map((c) => c.name),
    }).toEqual({ new_failures: ['ok'], existing_failures: ['still fails'], resolved_failures: ['fixed'], new_errors: ['new error'], existing_errors: ['still errors'], resolved_errors: ['error fixed'] });
  });

  it('without a base every failure is new; lists are cut at 100 less what came before, at least 10', () => {
    const head = Array.from({ length: 150 }, (_, i) => tc(`f${i}`, 'failed'));
    const result = compareTestReports([], head, ['rspec']);
    expect(result.suites[0]!.new_failures).toHaveLength(100);
    expect(result.suites[0]!.summary.failed).toBe(150);
    const mixed = compareTestReports(head.slice(0, 95), head, ['rspec']);
    expect(mixed.suites[0]!.new_failures).toHaveLength(55);
    expect(mixed.suites[0]!.existing_failures).toHaveLength(45);
    expect(compareTestReports([], [tc('a', 'success')], ['rspec', 'other']).suites.map((s) => [s.name, s.status, s.summary.total])).toEqual([
      ['rspec', 'success', 1],
      ['other', 'success', 0],
    ]);
  });
});
