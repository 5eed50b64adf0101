import { describe, expect, it } from 'vitest';
import { formatFilePath, resultsText, suiteCases, suiteText, summaryText, summaryTone, type ComparedSuite, type ComparedTestCase } from './test-summary-text';

const testCase = (name: string, status: ComparedTestCase['status'] = 'failed'): ComparedTestCase => ({ status, name, classname: 'spec', file: null, execution_time: 0.1, system_output: null, stack_trace: null });
const suite = (overrides: Partial<ComparedSuite> = {}): ComparedSuite => ({
  name: 'rspec',
  status: 'failed',
  summary: { total: 4, resolved: 0, failed: 1, errored: 0 },
  new_failures: [],
  existing_failures: [],
  resolved_failures: [],
  new_errors: [],
  existing_errors: [],
  resolved_errors: [],
  ...overrides,
});

describe('resultsText (GitLab’s textBuilder)', () => {
  it.each([
    [{ total: 4, resolved: 0, failed: 0, errored: 0 }, 'no changed test results, 4 total tests'],
    [{ total: 1, resolved: 0, failed: 0, errored: 0 }, 'no changed test results, 1 total test'],
    [{ total: 4, resolved: 0, failed: 2, errored: 0 }, '2 failed, 4 total tests'],
    [{ total: 4, resolved: 0, failed: 0, errored: 1 }, '1 error, 4 total tests'],
    [{ total: 4, resolved: 0, failed: 2, errored: 3 }, '2 failed, 3 errors, 4 total tests'],
    [{ total: 4, resolved: 1, failed: 0, errored: 0 }, '1 fixed test result, 4 total tests'],
    [{ total: 4, resolved: 2, failed: 1, errored: 0 }, '1 failed and 2 fixed test results, 4 total tests'],
    [{ total: 4, resolved: 1, failed: 1, errored: 1 }, '1 failed, 1 error and 1 fixed test result, 4 total tests'],
  ])('%j → %s', (summary, text) => {
    expect(resultsText(summary)).toBe(text);
  });
});

describe('summary and suite texts', () => {
  it('names the summary and each suite', () => {
    expect(summaryText({ total: 5000, resolved: 0, failed: 1, errored: 0 })).toBe('Test summary: 1 failed, 5000 total tests');
    expect(suiteText(suite())).toBe('rspec: 1 failed, 4 total tests');
    expect(suiteText(suite({ status: 'error' }))).toBe('An error occurred while loading rspec results');
    expect(suiteText(suite({ name: '' }))).toBe('An error occurred while loading report');
  });

  it('lists new failures and errors first, then existing ones, then the fixed', () => {
    const listed = suiteCases(suite({ resolved_failures: [testCase('fixed', 'success')], existing_failures: [testCase('old')], new_errors: [testCase('boom', 'error')], new_failures: [testCase('broken')] }));
    expect(listed.map(({ section, testCase: c }) => `${section}:${c.name}`)).toEqual(['new:broken', 'new:boom', 'existing:old', 'fixed:fixed']);
  });

  it('picks the collapsed icon as GitLab does', () => {
    expect(summaryTone({ status: 'failed', summary: { total: 1, resolved: 0, failed: 1, errored: 0 }, suites: [] })).toBe('warning');
    expect(summaryTone({ status: 'success', summary: { total: 1, resolved: 0, failed: 0, errored: 0 }, suites: [suite({ status: 'error' })] })).toBe('failed');
    expect(summaryTone({ status: 'success', summary: { total: 1, resolved: 0, failed: 0, errored: 0 }, suites: [suite({ status: 'success' })] })).toBe('success');
  });

  it('cuts a leading ./ or / from a case’s file', () => {
    expect(formatFilePath('./spec/a_spec.rb')).toBe('spec/a_spec.rb');
    expect(formatFilePath('/spec/a_spec.rb')).toBe('spec/a_spec.rb');
    expect(formatFilePath('spec/a_spec.rb')).toBe('spec/a_spec.rb');
  });
});
