// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import { fixtureJob } from './job-fixtures';
import { PipelineGraph } from './PipelineGraph';

const job = fixtureJob;

const JOBS = [
  job(1, 'compile', 'build', 'success'),
  job(2, 'rspec 2/2', 'test', 'failed', { icon: 'retry', title: 'Run again', button_title: 'Run this job again' }),
  job(3, 'rspec 1/2', 'test', 'success'),
  job(4, 'lint', 'test', 'success'),
];

function serveDag() {
  fakeNetwork([
    on('GET', '/-/project-path/acme%2Fapp/-/pipelines/4/dag.json', () =>
      json(200, {
        stages: [
          { name: 'build', groups: [{ name: 'compile', size: 1, jobs: [{ name: 'compile', needs: [] }] }] },
          { name: 'test', groups: [{ name: 'rspec', size: 2, jobs: [{ name: 'rspec 1/2', needs: ['compile'] }, { name: 'rspec 2/2', needs: ['compile'] }] }] },
        ],
      }),
    ),
  ]);
}

describe('PipelineGraph', () => {
  it('shows parallel jobs as one group card with its count and composite status, and a dropdown of its jobs', async () => {
    serveDag();
    renderInApp(<PipelineGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={JOBS} />);
    const test = screen.getByRole('list', { name: 'Jobs of stage test' });
    // GitLab's order: groups by sortable name (lint before rspec); one card for both rspec jobs
    expect(within(test).getAllByRole('listitem').map((item) => item.dataset.job)).toEqual(['lint', 'rspec']);
    const toggle = within(test).getByRole('button', { name: 'rspec, 2 jobs: failed' });
    expect(toggle.textContent).toMatch(/^rspec2/);
    expect(within(toggle).getByRole('img', { name: 'Status: failed' })).toBeTruthy();
    // the needs, in the card's accessible description, once the DAG JSON is read
    await screen.findByText('Needs: compile');
    expect(document.getElementById(toggle.getAttribute('aria-describedby')!)?.textContent).toBe('Needs: compile');
    fireEvent.click(toggle);
    const menu = await screen.findByRole('list', { name: 'Jobs of rspec' });
    const items = within(menu).getAllByRole('listitem');
    expect(items.map((item) => item.dataset.job)).toEqual(['rspec 1/2', 'rspec 2/2']);
    expect(within(items[0]!).getByRole('link', { name: 'rspec 1/2' }).getAttribute('href')).toBe('/acme/app/-/jobs/3');
    expect(within(items[1]!).getByRole('img', { name: 'Status: failed' })).toBeTruthy();
    expect(within(items[1]!).getByRole('button', { name: 'Run this job again: rspec 2/2' })).toBeTruthy();
  });

  it('keeps a lone job a plain card with its link', () => {
    serveDag();
    renderInApp(<PipelineGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={JOBS} />);
    const build = screen.getByRole('list', { name: 'Jobs of stage build' });
    expect(within(build).getByRole('link', { name: 'compile' }).getAttribute('href')).toBe('/acme/app/-/jobs/1');
    expect(within(build).queryByRole('button')).toBeNull();
  });

  it('switches to the job dependencies layout', async () => {
    serveDag();
    renderInApp(<PipelineGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={JOBS} />);
    await screen.findByText('Needs: compile');
    fireEvent.click(screen.getByRole('button', { name: 'Job dependencies' }));
    expect(screen.getByRole('list', { name: 'Jobs of column 1' }).querySelectorAll('[data-job]').length).toBe(1);
    expect(within(screen.getByRole('list', { name: 'Jobs of column 2' })).getAllByRole('listitem').map((item) => item.dataset.job)).toEqual(['lint', 'rspec']);
    expect(screen.getByTestId('needs-links')).toBeTruthy();
  });
});
