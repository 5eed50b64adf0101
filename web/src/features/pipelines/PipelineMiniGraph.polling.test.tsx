// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import { POLL_MS } from './api';
import { fixtureJob } from './job-fixtures';
import { PipelineMiniGraph } from './PipelineMiniGraph';

afterEach(() => vi.useRealTimers());

describe('PipelineMiniGraph polling', () => {
  it('reads a stage’s jobs only while its dropdown is open, again every poll, and stops once it closes', async () => {
    // the interval and the clock are fake; timeouts stay real for the requests and the queries
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const jobs = [fixtureJob(1, 'compile', 'build', 'success'), fixtureJob(2, 'unit', 'test', 'running')];
    let reads = 0;
    fakeNetwork([
      on('GET', '/api/v4/projects/1/pipelines/4/jobs', () => {
        reads++;
        return json(200, jobs);
      }),
      on('GET', '/api/v4/projects/1/pipelines/4/bridges', () => json(200, [])),
    ]);
    renderInApp(<PipelineMiniGraph projectId={1} fullPath="acme/app" pipelineId={4} jobs={jobs} />);
    const stage = screen.getByRole('button', { name: 'Stage test: running' });

    // closed: nothing is read, however long it stays so
    await act(async () => void vi.advanceTimersByTime(POLL_MS * 5));
    expect(reads).toBe(0);

    fireEvent.click(stage);
    await screen.findByRole('list', { name: 'Jobs of stage test' });
    await waitFor(() => expect(reads).toBe(1));
    await act(async () => void vi.advanceTimersByTime(POLL_MS));
    await waitFor(() => expect(reads).toBe(2));
    await act(async () => void vi.advanceTimersByTime(POLL_MS));
    await waitFor(() => expect(reads).toBe(3));

    fireEvent.keyDown(screen.getByRole('list', { name: 'Jobs of stage test' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Jobs of stage test' })).toBeNull());
    await act(async () => void vi.advanceTimersByTime(POLL_MS * 5));
    expect(reads).toBe(3);
  });
});
