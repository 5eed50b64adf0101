// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import type { Project } from '../../lib/gitlab-types';
import { PipelinesPage } from './PipelinesPage';

const PROJECT = { id: 1, path_with_namespace: 'acme/app', empty_repo: false, permissions: { project_access: { access_level: 30 }, group_access: null } } as unknown as Project;

/** The page's list: pipelines with their jobs, in one request (the web route beside the API's list). */
const LIST_PATH = '/-/project-path/acme%2Fapp/-/pipelines.json';

/** The list's requests with their query strings (the fake network keeps paths only). */
function recordListQueries(): URLSearchParams[] {
  const queries: URLSearchParams[] = [];
  fakeNetwork([on('GET', LIST_PATH, () => json(200, [], { 'X-Page': '1', 'X-Total': '0', 'X-Total-Pages': '1', 'X-Per-Page': '20' }))]);
  const inner = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, window.location.origin);
    if (url.pathname === LIST_PATH) queries.push(url.searchParams);
    return inner(input, init);
  });
  return queries;
}

describe('PipelinesPage filters (GitLab’s tokens: status, source, ref, username)', () => {
  it('sends each filter to the pipelines list and shows GitLab’s empty result', async () => {
    const queries = recordListQueries();
    renderInApp(<PipelinesPage project={PROJECT} />, { path: '/acme/app/-/pipelines' });
    await screen.findByText('There are currently no pipelines.');
    expect(queries[0]!.get('status')).toBeNull();

    const form = screen.getByRole('form', { name: 'Filter pipelines' });
    fireEvent.change(within(form).getByLabelText('Status'), { target: { value: 'failed' } });
    await vi.waitFor(() => expect(queries.at(-1)!.get('status')).toBe('failed'));
    fireEvent.change(within(form).getByLabelText('Source'), { target: { value: 'schedule' } });
    await vi.waitFor(() => expect(queries.at(-1)!.get('source')).toBe('schedule'));
    fireEvent.change(within(form).getByLabelText('Branch or tag'), { target: { value: 'main' } });
    fireEvent.change(within(form).getByLabelText('Trigger author'), { target: { value: 'alice' } });
    fireEvent.submit(form);
    await vi.waitFor(() => {
      const last = queries.at(-1)!;
      expect([last.get('status'), last.get('source'), last.get('ref'), last.get('username')]).toEqual(['failed', 'schedule', 'main', 'alice']);
    });
    await screen.findByText('No results found');
  });
});
