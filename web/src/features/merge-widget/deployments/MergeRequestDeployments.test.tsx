// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../../test-support/component';
import type { EnvironmentDeployment } from './deployment-status';
import { MergeRequestDeployments } from './MergeRequestDeployments';

const PATH = '/acme/app/-/merge_requests/1/ci_environments_status';
const deployment = (overrides: Partial<EnvironmentDeployment>): EnvironmentDeployment => ({
  id: 1,
  name: 'review/feature',
  status: 'success',
  url: '/acme/app/-/environments/1',
  external_url: 'https://feature.example.com',
  external_url_formatted: 'feature.example.com',
  deployed_at: '2026-11-27T10:00:00.000Z',
  deployed_at_formatted: 'Nov 27, 2026 10:00am',
  details: {},
  deployment_approved: false,
  environment_available: true,
  changes: [],
  ...overrides,
});

describe('MergeRequestDeployments: View app and the changed pages', () => {
  it('links the app alone when the route map gives no changed pages', async () => {
    fakeNetwork([on('GET', PATH, () => json(200, [deployment({})]))]);
    renderInApp(<MergeRequestDeployments fullPath="acme/app" iid={1} merged={false} />);
    const link = await screen.findByRole('link', { name: 'View app' });
    expect(link.getAttribute('href')).toBe('https://feature.example.com');
  });

  it('opens a menu of the app and each changed page, each at its address in the environment', async () => {
    const changes = [
      { path: 'team/', external_url: 'https://feature.example.com/team/' },
      { path: 'index.html', external_url: 'https://feature.example.com/index.html' },
    ];
    fakeNetwork([on('GET', PATH, () => json(200, [deployment({ changes })]))]);
    renderInApp(<MergeRequestDeployments fullPath="acme/app" iid={1} merged={false} />);
    const button = await screen.findByRole('button', { name: 'View app' });
    fireEvent.click(button);
    // the menu is named by its button
    const list = await screen.findByRole('menu', { name: 'View app' });
    const items = within(list).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['feature.example.com', 'team/https://feature.example.com/team/', 'index.htmlhttps://feature.example.com/index.html']);
    expect(items.map((item) => (item.closest('a') ?? item).getAttribute('href'))).toEqual(['https://feature.example.com', ...changes.map((change) => change.external_url)]);
    expect(items.every((item) => (item.closest('a') ?? item).getAttribute('target') === '_blank')).toBe(true);
  });
});
