// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '../../../test-support/component';
import { deltaMeaning, jobsDescription } from './coverage-text';
import { PipelineCoverage } from './PipelineCoverage';

/** The line's text as it reads on screen: without its tooltips' hidden texts. */
function shownText(element: HTMLElement): string {
  const copy = element.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('[popover], [role="tooltip"]').forEach((tooltip) => tooltip.remove());
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

describe('PipelineCoverage', () => {
  it('shows the coverage, its change against the target and the jobs it averages', () => {
    renderInApp(<PipelineCoverage coverage={80} delta="4.50" jobs={[{ name: 'rspec', coverage: 85 }, { name: 'jest', coverage: 75 }]} />);
    const line = screen.getByTestId('pipeline-coverage');
    expect(shownText(line)).toBe('Test coverage 80.00% (4.50%) from 2 jobs');
    expect(screen.getByRole('button', { name: '(4.50%)', description: 'This change will increase the overall test coverage if merged.' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Test coverage value for this pipeline was calculated by averaging the resulting coverage values of 2 jobs. rspec (85%) jest (75%)' })).toBeTruthy();
  });

  it('leaves the change out when the target’s pipeline has no coverage', () => {
    renderInApp(<PipelineCoverage coverage={61.5} delta={null} jobs={[{ name: 'rspec', coverage: 61.5 }]} />);
    expect(shownText(screen.getByTestId('pipeline-coverage'))).toBe('Test coverage 61.50% from 1 job');
    expect(screen.queryByText(/This change will/)).toBeNull();
  });
});

describe('GitLab’s coverage tooltips', () => {
  it.each([
    ['4.50', 'success', 'This change will increase the overall test coverage if merged.'],
    ['-0.25', 'failed', 'This change will decrease the overall test coverage if merged.'],
    ['0.00', 'neutral', 'This change will not change the overall test coverage if merged.'],
  ])('delta %s', (delta, tone, description) => {
    expect(deltaMeaning(delta)).toEqual({ tone, description });
  });

  it('explains how the pipeline’s value was computed', () => {
    expect(jobsDescription(1)).toBe('Test coverage value for this pipeline was calculated by the coverage value of 1 job.');
    expect(jobsDescription(3)).toBe('Test coverage value for this pipeline was calculated by averaging the resulting coverage values of 3 jobs.');
  });
});
