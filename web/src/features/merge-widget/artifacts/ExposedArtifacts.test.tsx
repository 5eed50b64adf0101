// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { queryClient } from '../../../app/client';
import { fakeNetwork, json, on, renderInApp } from '../../../test-support/component';
import { exposedArtifactsKey } from './api';
import { ExposedArtifacts } from './ExposedArtifacts';

const PATH = '/acme/app/-/merge_requests/1/exposed_artifacts.json';
const pipeline = { id: 'gid://gitlab/Ci::Pipeline/7', status: 'SUCCESS', active: false };
const ARTIFACTS = [
  { text: 'Coverage report', url: '/api/v4/projects/1/jobs/11/artifacts/coverage/index.html', job_name: 'report', job_path: '/acme/app/-/jobs/11' },
  { text: 'Review site', url: '/acme/app/-/jobs/12/artifacts/browse', job_name: 'site', job_path: '/acme/app/-/jobs/12' },
];

describe('ExposedArtifacts', () => {
  it('shows nothing while no job exposes artifacts (204)', async () => {
    const network = fakeNetwork([on('GET', PATH, () => new Response(null, { status: 204 }))]);
    const { container } = renderInApp(<ExposedArtifacts fullPath="acme/app" iid={1} pipeline={pipeline} />);
    await waitFor(() => expect(network.sent.length).toBe(1));
    await waitFor(() => expect(container.textContent).toBe(''));
  });

  it('lists the artifacts behind GitLab’s title, each linked with its job', async () => {
    fakeNetwork([on('GET', PATH, () => json(200, ARTIFACTS, { ETag: 'W/"one"' }))]);
    renderInApp(<ExposedArtifacts fullPath="acme/app" iid={1} pipeline={pipeline} />);
    const region = await screen.findByRole('region', { name: 'Exposed artifacts' });
    const toggle = within(region).getByRole('button', { name: 'View 2 exposed artifacts' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const report = within(region).getByRole('link', { name: 'Coverage report' });
    expect(report.getAttribute('href')).toBe(ARTIFACTS[0]!.url);
    expect(report.getAttribute('target')).toBe('_blank');
    expect(within(region).getByRole('link', { name: 'report' }).getAttribute('href')).toBe('/acme/app/-/jobs/11');
    expect(within(region).getByRole('link', { name: 'Review site' }).getAttribute('href')).toBe('/acme/app/-/jobs/12/artifacts/browse');
  });

  it('polls with the ETag it holds and keeps the list on 304', async () => {
    let calls = 0;
    const network = fakeNetwork([
      on('GET', PATH, () => {
        calls += 1;
        return calls === 1 ? json(200, ARTIFACTS.slice(0, 1), { ETag: 'W/"one"' }) : new Response(null, { status: 304, headers: { ETag: 'W/"one"' } });
      }),
    ]);
    renderInApp(<ExposedArtifacts fullPath="acme/app" iid={1} pipeline={pipeline} />);
    await screen.findByRole('button', { name: 'View exposed artifact' });
    expect(network.sent[0]!.headers['If-None-Match']).toBeUndefined();
    await queryClient.refetchQueries({ queryKey: exposedArtifactsKey('acme/app', 1, pipeline.id) });
    expect(network.sent[1]!.headers['If-None-Match']).toBe('W/"one"');
    expect(screen.getByRole('button', { name: 'View exposed artifact' })).toBeTruthy();
  });

  it('says GitLab’s error when the list cannot be read', async () => {
    fakeNetwork([on('GET', PATH, () => json(500, { message: 'boom' }))]);
    renderInApp(<ExposedArtifacts fullPath="acme/app" iid={1} pipeline={pipeline} />);
    expect((await screen.findByRole('alert')).textContent).toBe('An error occurred while fetching the artifacts.');
  });
});
