// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../../test-support/component';
import type { ComparedSuite, ComparedTestCase, TestReportsComparison } from './test-summary-text';
import { TestSummary } from './TestSummary';

const PATH = (iid: number) => `/acme/app/-/merge_requests/${iid}/test_reports.json`;
const pipeline = { id: 'gid://gitlab/Ci::Pipeline/7', status: 'SUCCESS', path: '/acme/app/-/pipelines/7' };

const testCase = (name: string, overrides: Partial<ComparedTestCase> = {}): ComparedTestCase => ({ status: 'failed', name, classname: 'CartSpec', file: './spec/cart_spec.rb', execution_time: 0.25, system_output: null, stack_trace: null, ...overrides });
const suite = (overrides: Partial<ComparedSuite>): ComparedSuite => ({
  name: 'rspec',
  status: 'failed',
  summary: { total: 4, resolved: 1, failed: 2, errored: 0 },
  new_failures: [],
  existing_failures: [],
  resolved_failures: [],
  new_errors: [],
  existing_errors: [],
  resolved_errors: [],
  ...overrides,
});
const comparison: TestReportsComparison = {
  status: 'failed',
  summary: { total: 4, resolved: 1, failed: 2, errored: 0 },
  suites: [
    suite({
      new_failures: [testCase('adds the discount', { system_output: 'expected 10, got 12' })],
      existing_failures: [testCase('rounds totals')],
      resolved_failures: [testCase('empties the cart', { status: 'success' })],
    }),
  ],
};

describe('TestSummary', () => {
  it('shows the collapsed summary, expands to suites with new failures first, and opens a case’s details', async () => {
    fakeNetwork([on('GET', PATH(1), () => json(200, comparison))]);
    renderInApp(<TestSummary fullPath="acme/app" iid={1} pipeline={pipeline} />);
    const region = await screen.findByRole('region', { name: 'Test summary' });
    await within(region).findByText('Test summary: 2 failed and 1 fixed test result, 4 total tests');
    expect(within(region).getByRole('link', { name: 'Full report' }).getAttribute('href')).toBe('/acme/app/-/pipelines/7/test_report');
    expect(within(region).queryByRole('list', { name: 'Test suites' })).toBeNull();

    fireEvent.click(within(region).getByRole('button', { name: 'Expand test summary' }));
    expect(within(region).getByText('rspec: 2 failed and 1 fixed test result, 4 total tests')).toBeTruthy();
    const cases = within(region).getByRole('list', { name: 'rspec test cases' });
    const rows = within(cases).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('data-section'))).toEqual(['new', 'existing', 'fixed']);
    expect(rows[0]!.textContent).toContain('New');
    expect(rows[0]!.textContent).toContain('adds the discount');
    expect(rows[1]!.textContent).not.toContain('New');
    expect(rows[2]!.textContent).toContain('Fixed');

    fireEvent.click(within(region).getByRole('button', { name: 'View details: adds the discount' }));
    const dialog = await screen.findByRole('dialog', { name: 'CartSpec' });
    expect(dialog.textContent).toContain('adds the discount');
    expect(dialog.textContent).toContain('./spec/cart_spec.rb');
    expect(dialog.textContent).toContain('0.25 s');
    expect(within(dialog).getByLabelText('System output').textContent).toBe('expected 10, got 12');
    // the footer's Close, as GitLab's modal has (the header's close button has the same name)
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(region).getByRole('button', { name: 'Collapse test summary' }));
    expect(within(region).queryByRole('list', { name: 'Test suites' })).toBeNull();
  });

  it('says nothing changed when the head pipeline fails nothing new', async () => {
    fakeNetwork([on('GET', PATH(2), () => json(200, { status: 'success', summary: { total: 3, resolved: 0, failed: 0, errored: 0 }, suites: [suite({ status: 'success', summary: { total: 3, resolved: 0, failed: 0, errored: 0 } })] }))]);
    renderInApp(<TestSummary fullPath="acme/app" iid={2} pipeline={pipeline} />);
    expect(await screen.findByText('Test summary: no changed test results, 3 total tests')).toBeTruthy();
  });

  it('shows the loading text while the server computes the comparison (204), then the summary', async () => {
    let computed = false;
    const network = fakeNetwork([on('GET', PATH(3), () => (computed ? json(200, comparison) : new Response(null, { status: 204, headers: { 'Poll-Interval': '3000' } })))]);
    renderInApp(<TestSummary fullPath="acme/app" iid={3} pipeline={pipeline} />);
    await waitFor(() => expect(network.sent.length).toBeGreaterThan(0));
    expect(await screen.findByText('Test summary results are loading')).toBeTruthy();
    computed = true;
    expect(await screen.findByText('Test summary: 2 failed and 1 fixed test result, 4 total tests', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('shows GitLab’s error text when the comparison cannot be read', async () => {
    fakeNetwork([on('GET', PATH(4), () => json(500, { message: '500 Internal Server Error' }))]);
    renderInApp(<TestSummary fullPath="acme/app" iid={4} pipeline={pipeline} />);
    expect(await screen.findByText('Test summary failed to load results', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('shows nothing when the head pipeline has no test report (400)', async () => {
    const network = fakeNetwork([on('GET', PATH(5), () => json(400, { status_reason: 'This merge request does not have test reports' }))]);
    const { container } = renderInApp(<TestSummary fullPath="acme/app" iid={5} pipeline={pipeline} />);
    await waitFor(() => expect(network.sent.length).toBe(1));
    await waitFor(() => expect(container.textContent).toBe(''));
  });
});
