// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../../test-support/component';
import { PipelineArtifacts } from './PipelineArtifacts';

const JOBS = '/api/v4/projects/1/pipelines/5/jobs';
const BRIDGES = '/api/v4/projects/1/pipelines/5/bridges';
const job = (id: number, name: string, archive: boolean) => ({ id, name, status: 'success', stage: 'test', ...(archive ? { artifacts_file: { filename: 'artifacts.zip', size: 10 } } : {}) });

describe('PipelineArtifacts', () => {
  it('offers each job’s archive for download under GitLab’s “Download artifacts”', async () => {
    fakeNetwork([on('GET', JOBS, () => json(200, [job(9, 'build', true), job(10, 'lint', false), job(11, 'package', true)])), on('GET', BRIDGES, () => json(200, []))]);
    renderInApp(<PipelineArtifacts projectId={1} pipelineId={5} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Artifacts' }));
    const menu = await screen.findByRole('menu', { name: 'Artifacts' });
    expect(within(menu).getByText('Download artifacts')).toBeTruthy();
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['build', 'package']);
    expect(items.map((item) => (item.closest('a') ?? item).getAttribute('href'))).toEqual(['/api/v4/projects/1/jobs/9/artifacts', '/api/v4/projects/1/jobs/11/artifacts']);
  });

  it('shows nothing while no job has an archive', async () => {
    const network = fakeNetwork([on('GET', JOBS, () => json(200, [job(10, 'lint', false)])), on('GET', BRIDGES, () => json(200, []))]);
    const { container } = renderInApp(<PipelineArtifacts projectId={1} pipelineId={5} />);
    await waitFor(() => expect(network.sent.length).toBe(2));
    expect(container.textContent).toBe('');
  });
});
