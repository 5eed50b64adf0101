// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Project } from '../../lib/gitlab-types';
import { fakeNetwork, json, on, renderInApp, type SentRequest } from '../../test-support/component';
import { ProjectRepositorySettings } from './ProjectRepositorySettings';

const PROJECT = { id: 1, path_with_namespace: 'acme/app', default_branch: 'main' } as unknown as Project;
const ACCESS = [{ access_level: 40, access_level_description: 'Maintainers' }];
const branch = (name: string, required: boolean) => ({ id: name.length, name, push_access_levels: ACCESS, merge_access_levels: ACCESS, allow_force_push: false, code_owner_approval_required: required });

/** A protected branch's "code owner approval required": set when protecting, switched in the list. */
describe('code owner approval on protected branches', () => {
  function render(protectedBranches: ReturnType<typeof branch>[]) {
    const network = fakeNetwork([
      on('GET', '/api/v4/projects/1/protected_branches', () => json(200, protectedBranches)),
      on('GET', '/api/v4/projects/1/protected_tags', () => json(200, [])),
      on('GET', '/api/v4/projects/1/repository/branches', () => json(200, [{ name: 'main' }])),
      on('GET', '/api/v4/projects/1/push_rule', () => json(200, null)),
      on('POST', '/api/v4/projects/1/protected_branches', (request) => {
        const body = request.body as { name: string; code_owner_approval_required: boolean };
        protectedBranches.push(branch(body.name, body.code_owner_approval_required));
        return json(201, protectedBranches.at(-1));
      }),
      on('PATCH', '/api/v4/projects/1/protected_branches/main', (request) => {
        protectedBranches[0] = branch('main', (request.body as { code_owner_approval_required: boolean }).code_owner_approval_required);
        return json(200, protectedBranches[0]);
      }),
    ]);
    renderInApp(<ProjectRepositorySettings project={PROJECT} />);
    return network;
  }
  const writes = (sent: SentRequest[]) => sent.filter((request) => request.method !== 'GET').map((request) => [request.method, request.path, request.body]);

  it('switches it per branch in the list', async () => {
    const network = render([branch('main', false)]);
    const list = await screen.findByRole('list', { name: 'Protected branches' });
    const toggle = within(list).getByRole('button', { name: 'Code owner approval for main' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(toggle);
    await waitFor(() => expect(within(list).getByRole('button', { name: 'Code owner approval for main' }).getAttribute('aria-pressed')).toBe('true'));
    expect(writes(network.sent)).toEqual([['PATCH', '/api/v4/projects/1/protected_branches/main', { code_owner_approval_required: true }]]);
  });

  it('sends it with a newly protected branch', async () => {
    const network = render([]);
    await screen.findByText('No branches are protected.');
    const form = screen.getByRole('form', { name: 'Protect a branch' });
    await userEvent.type(within(form).getByLabelText(/Branch/), 'release/*');
    await userEvent.click(within(form).getByRole('checkbox', { name: /Require approval from code owners/ }));
    await userEvent.click(within(form).getByRole('button', { name: 'Protect' }));
    const list = await screen.findByRole('list', { name: 'Protected branches' });
    expect(within(list).getByRole('button', { name: 'Code owner approval for release/*' }).getAttribute('aria-pressed')).toBe('true');
    expect(writes(network.sent)).toEqual([['POST', '/api/v4/projects/1/protected_branches', expect.objectContaining({ name: 'release/*', code_owner_approval_required: true })]]);
  });
});
