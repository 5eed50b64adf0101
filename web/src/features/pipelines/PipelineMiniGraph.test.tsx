// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import type { Job } from './api';
import { fixtureJob, fixturePipeline } from './job-fixtures';
import { PipelineMiniGraph } from './PipelineMiniGraph';

const pipeline = fixturePipeline;
const job = fixtureJob;

function bridge(id: number, downstreamId: number | null): Job {
  const { detailed_status: _, ...rest } = job(id, `trigger ${id}`, 'deploy', 'success');
  return { ...rest, downstream_pipeline: downstreamId === null ? null : { ...pipeline, id: downstreamId, status: 'success', web_url: `http://localhost/acme/app/-/pipelines/${downstreamId}` } };
}

/** The pipeline's jobs endpoint (and its bridges), counting how often each is read. */
function serveJobs(jobs: Job[], bridges: Job[] = []) {
  const reads = { jobs: 0 };
  fakeNetwork([
    on('GET', '/api/v4/projects/1/pipelines/4/jobs', () => {
      reads.jobs++;
      return json(200, jobs);
    }),
    on('GET', '/api/v4/projects/1/pipelines/4/bridges', () => json(200, bridges)),
  ]);
  return reads;
}

describe('PipelineMiniGraph', () => {
  it('has one dropdown per stage, named by its status, listing failed jobs first', async () => {
    const jobs = [job(1, 'compile', 'build', 'success'), job(2, 'unit', 'test', 'success'), job(3, 'lint', 'test', 'failed'), job(4, 'e2e', 'test', 'running')];
    const reads = serveJobs(jobs);
    renderInApp(<PipelineMiniGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={jobs} />);
    expect(screen.getByRole('button', { name: 'Stage build: passed' })).toBeTruthy();
    // nothing is read while every dropdown is closed
    expect(reads.jobs).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Stage test: failed' }));
    const list = await screen.findByRole('list', { name: 'Jobs of stage test' });
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(['lint', 'unit', 'e2e']);
    expect(within(list).getAllByRole('link')[0]!.getAttribute('href')).toBe('/acme/app/-/jobs/3');
    // an open dropdown reads the jobs
    await screen.findByRole('list', { name: 'Jobs of stage test' });
    expect(reads.jobs).toBeGreaterThan(0);
    expect(screen.queryByRole('textbox', { name: 'Search jobs' })).toBeNull();
  });

  it('offers a search box above 12 jobs in a stage', async () => {
    const jobs = Array.from({ length: 13 }, (_, i) => job(i + 1, `rspec ${i + 1}/13`, 'test', 'success'));
    jobs.push(job(20, 'lint', 'test', 'success'));
    serveJobs(jobs);
    renderInApp(<PipelineMiniGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={jobs} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stage test: passed' }));
    const search = await screen.findByRole('textbox', { name: 'Search jobs' });
    fireEvent.change(search, { target: { value: 'lint' } });
    const list = screen.getByRole('list', { name: 'Jobs of stage test' });
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(['lint']);
  });

  it('shows the merge train footer and GitLab’s alert when the stage’s jobs cannot be read', async () => {
    const jobs = [job(1, 'compile', 'build', 'success')];
    fakeNetwork([on('GET', '/api/v4/projects/1/pipelines/4/jobs', () => json(403, { message: '403 Forbidden' }))]);
    renderInApp(<PipelineMiniGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={jobs} mergeTrain />);
    fireEvent.click(screen.getByRole('button', { name: 'Stage build: passed' }));
    expect(await screen.findByText('Merge train pipeline jobs can not be retried')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe('There was a problem fetching the pipeline stage jobs.');
  });

  it('shows at most three downstream pipelines and a +N link to the pipeline page, and the upstream pipeline', () => {
    const jobs = [job(1, 'compile', 'build', 'success'), bridge(5, 11), bridge(6, 12), bridge(7, 13), bridge(8, 14), bridge(9, null)];
    serveJobs(jobs);
    renderInApp(
      <PipelineMiniGraph
        projectId={1}
        fullPath="acme/app"
        pipelineId={4}
        jobs={jobs}
        upstream={{ id: 2, status: 'running', project_id: 7, web_url: 'http://localhost/acme/lib/-/pipelines/2' }}
      />,
    );
    expect(screen.getAllByRole('button', { name: /^Downstream pipeline #/ }).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Downstream pipeline #11: passed',
      'Downstream pipeline #12: passed',
      'Downstream pipeline #13: passed',
    ]);
    expect(screen.getByRole('link', { name: '1 more downstream pipelines' }).getAttribute('href')).toBe('/acme/app/-/pipelines/4');
    expect(screen.getByRole('link', { name: 'Upstream pipeline #2: running' }).getAttribute('href')).toBe('/acme/lib/-/pipelines/2');
  });
});
