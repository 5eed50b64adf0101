// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import type { Project } from '../../lib/gitlab-types';
import { JobPage } from './JobPage';

const PROJECT = { id: 1, path_with_namespace: 'acme/app', permissions: { project_access: { access_level: 30 }, group_access: null } } as unknown as Project;
const status = { icon: 'status_success', text: 'passed', label: 'passed', group: 'success', tooltip: 'passed', has_details: true, details_path: '/acme/app/-/jobs/9' };
const JOB = {
  id: 9,
  status: 'success',
  stage: 'test',
  name: 'unit',
  ref: 'main',
  allow_failure: false,
  created_at: '2026-11-27T10:00:00Z',
  started_at: '2026-11-27T10:00:00Z',
  finished_at: '2026-11-27T10:01:05Z',
  duration: 65,
  queued_duration: 1,
  user: null,
  pipeline: { id: 4, iid: 1, project_id: 1, sha: 'a'.repeat(40), ref: 'main', status: 'success', source: 'push', created_at: '', updated_at: '', web_url: '', name: null },
  web_url: '',
  runner: { id: 3, description: 'box' },
  detailed_status: { ...status, action: { icon: 'retry', title: 'Run again', path: '/acme/app/-/jobs/9/retry', method: 'post', button_title: 'Run this job again' } },
};

const text = (body: string) => new Response(body, { status: 200, headers: { 'Content-Type': 'text/plain' } });

describe('JobPage', () => {
  it('shows the header and the log from the trace endpoint when it answers', async () => {
    fakeNetwork([on('GET', '/api/v4/projects/1/jobs/9', () => json(200, JOB)), on('GET', '/api/v4/projects/1/jobs/9/trace', () => text('\u001b[32;1mJob succeeded\u001b[0;m\n'))]);
    renderInApp(<JobPage project={PROJECT} id={9} />);
    await screen.findByRole('heading', { name: 'unit' });
    expect(screen.getByText('Duration 00:01:05')).toBeTruthy();
    expect(screen.getByText('Runner box')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run this job again: unit' }).textContent).toContain('Run again');
    const line = await screen.findByText('Job succeeded');
    expect(line.className).toMatch(/fg-green/);
    expect(screen.getByRole('link', { name: 'Show complete raw' }).getAttribute('href')).toBe('/api/v4/projects/1/jobs/9/trace');
  });

  it('shows the log panel’s empty state where there is no trace endpoint (404)', async () => {
    fakeNetwork([on('GET', '/api/v4/projects/1/jobs/9', () => json(200, JOB))]);
    renderInApp(<JobPage project={PROJECT} id={9} />);
    await screen.findByRole('heading', { name: 'No job log' });
  });
});
