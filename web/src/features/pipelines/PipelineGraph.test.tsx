// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
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
  // the grouping is remembered in localStorage: every test starts from GitLab's default, by stage
  beforeEach(() => window.localStorage.clear());

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
  });

  it('offers "Group jobs by" only for a pipeline that uses needs, and shows the stages otherwise', async () => {
    window.localStorage.setItem('pipeline_graph_view_type', 'layer');
    const { sent } = fakeNetwork([
      on('GET', '/-/project-path/acme%2Fapp/-/pipelines/4/dag.json', () =>
        json(200, { stages: [{ name: 'build', groups: [{ name: 'compile', size: 1, jobs: [{ name: 'compile' }] }] }] }),
      ),
    ]);
    renderInApp(<PipelineGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={JOBS} />);
    await vi.waitFor(() => expect(sent.some((request) => request.path.endsWith('/dag.json'))).toBe(true));
    await screen.findByRole('list', { name: 'Jobs of stage test' });
    expect(screen.queryByRole('button', { name: 'Job dependencies' })).toBeNull();
    expect(screen.queryByText('Group jobs by')).toBeNull();
  });

  it('draws the needs lines only while "Show dependencies" is on, in the job dependencies view, as GitLab', async () => {
    serveDag();
    renderInApp(<PipelineGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={JOBS} />);
    await screen.findByText('Needs: compile');
    // grouped by stage there is no switch
    expect(screen.queryByRole('button', { name: 'Show dependencies' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Job dependencies' }));
    const toggle = screen.getByRole('button', { name: 'Show dependencies' });
    // off on every page load (GitLab keeps only the grouping in localStorage)
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByTestId('needs-links')).toBeNull();
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Show dependencies' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('needs-links')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stage' }));
    expect(screen.queryByTestId('needs-links')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Show dependencies' })).toBeNull();
  });

  it('shows GitLab’s hover tip with the lines until it is dismissed, recording the callout', async () => {
    const dismissed: unknown[] = [];
    fakeNetwork([
      on('GET', '/-/project-path/acme%2Fapp/-/pipelines/4/dag.json', () => json(200, { stages: [{ name: 'test', groups: [{ name: 'lint', size: 1, jobs: [{ name: 'lint', needs: [] }] }] }] })),
      on('GET', '/-/users/callouts', () => json(200, { callouts: [] })),
      on('POST', '/-/users/callouts', (request) => {
        dismissed.push(request.body);
        return json(201, { feature_name: 'pipeline_needs_hover_tip', dismissed_at: '2026-11-28T00:00:00Z' });
      }),
    ]);
    renderInApp(<PipelineGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={JOBS} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Job dependencies' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show dependencies' }));
    await screen.findByText('Tip: Hover over a job to see the jobs it depends on to run.');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Tip: Hover over a job to see the jobs it depends on to run.')).toBeNull();
    await vi.waitFor(() => expect(dismissed).toHaveLength(1));
  });
});
