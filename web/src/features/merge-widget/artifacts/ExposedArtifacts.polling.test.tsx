// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../../test-support/component';
import { EXPOSED_ARTIFACTS_POLL_MS } from './api';
import { ExposedArtifacts } from './ExposedArtifacts';

const PATH = '/acme/app/-/merge_requests/1/exposed_artifacts.json';
const running = { id: 'gid://gitlab/Ci::Pipeline/7', status: 'RUNNING', active: true };
const ARTIFACT = { text: 'Coverage report', url: '/acme/app/-/jobs/11/artifacts/browse', job_name: 'report', job_path: '/acme/app/-/jobs/11' };

/** What the browser says of the tab, and the event it sends when that changes. */
function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

afterEach(() => {
  vi.useRealTimers();
  setVisibility('visible');
});

describe('ExposedArtifacts polling', () => {
  it('polls while the head pipeline runs, pauses while the browser tab is hidden, and resumes when it is shown', async () => {
    // the interval and the clock are fake; timeouts stay real for the requests and the queries
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const network = fakeNetwork([on('GET', PATH, () => json(200, [ARTIFACT], { ETag: 'W/"one"' }))]);
    const reads = () => network.sent.filter((request) => request.path === PATH).length;
    renderInApp(<ExposedArtifacts fullPath="acme/app" iid={1} pipeline={running} />);
    await screen.findByRole('button', { name: 'View exposed artifact' });
    expect(reads()).toBe(1);

    await act(async () => void vi.advanceTimersByTime(EXPOSED_ARTIFACTS_POLL_MS));
    await waitFor(() => expect(reads()).toBe(2));

    setVisibility('hidden');
    await act(async () => void vi.advanceTimersByTime(EXPOSED_ARTIFACTS_POLL_MS * 5));
    expect(reads()).toBe(2);

    setVisibility('visible');
    await act(async () => void vi.advanceTimersByTime(EXPOSED_ARTIFACTS_POLL_MS));
    await waitFor(() => expect(reads()).toBeGreaterThan(2));
  });

  it('stops polling once the pipeline has finished', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const network = fakeNetwork([on('GET', PATH, () => json(200, [ARTIFACT], { ETag: 'W/"one"' }))]);
    renderInApp(<ExposedArtifacts fullPath="acme/app" iid={1} pipeline={{ ...running, status: 'SUCCESS', active: false }} />);
    await screen.findByRole('button', { name: 'View exposed artifact' });
    await act(async () => void vi.advanceTimersByTime(EXPOSED_ARTIFACTS_POLL_MS * 5));
    expect(network.sent.filter((request) => request.path === PATH)).toHaveLength(1);
  });
});
