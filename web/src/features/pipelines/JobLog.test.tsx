// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '../../test-support/component';
import { JobLog } from './JobLog';

const E = '\u001b';
const LOG = [
  'Running with gitlab-runner',
  `${E}[0Ksection_start:1700000000:prepare\r${E}[0KPreparing`,
  `${E}[31;1m<b>not bold</b>${E}[0m`,
  `${E}[0Ksection_end:1700000002:prepare\r${E}[0K`,
  `${E}[0Ksection_start:1700000002:script[collapsed=true]\r${E}[0KExecuting`,
  '$ make',
  `${E}[0Ksection_end:1700000005:script\r${E}[0K`,
  'Job succeeded',
].join('\n');

const lineTexts = () =>
  Array.from(screen.getByRole('log', { name: 'Job log' }).querySelectorAll('[data-line]')).map((line) => line.textContent);

describe('JobLog', () => {
  it('renders ANSI text as text with line numbers, never as markup', () => {
    renderInApp(<JobLog log={LOG} rawUrl="/raw" />);
    const log = screen.getByRole('log', { name: 'Job log' });
    expect(log.querySelector('b')).toBeNull();
    const coloured = within(log).getByText('<b>not bold</b>');
    expect(coloured.className).toMatch(/fg-red/);
    expect(coloured.className).toMatch(/bold/);
    expect(lineTexts()[0]).toBe('1Running with gitlab-runner');
    expect(screen.getByRole('link', { name: 'Show complete raw' }).getAttribute('href')).toBe('/raw');
    expect(screen.getByRole('button', { name: 'Scroll to bottom' })).toBeTruthy();
  });

  it('folds and unfolds sections at their header; [collapsed=true] starts folded', async () => {
    const user = userEvent.setup();
    renderInApp(<JobLog log={LOG} rawUrl="/raw" />);
    // The script section starts folded: its header shows, its lines do not.
    expect(lineTexts()).toEqual(['1Running with gitlab-runner', '2Preparing00:02', '3<b>not bold</b>', '4Executing00:03', '6Job succeeded']);
    const script = screen.getByRole('button', { name: /Executing/ });
    expect(script.getAttribute('aria-expanded')).toBe('false');
    await user.click(script);
    expect(lineTexts()).toContain('5$ make');
    expect(script.getAttribute('aria-expanded')).toBe('true');

    await user.click(screen.getByRole('button', { name: /Preparing/ }));
    expect(lineTexts()).toEqual(['1Running with gitlab-runner', '2Preparing00:02', '4Executing00:03', '5$ make', '6Job succeeded']);
  });

  it('shows the empty state without a log', () => {
    renderInApp(<JobLog log={null} rawUrl="/raw" />);
    expect(screen.getByRole('heading', { name: 'No job log' })).toBeTruthy();
  });
});
