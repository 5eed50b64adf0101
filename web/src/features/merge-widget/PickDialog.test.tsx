// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import { PickDialog } from './PickDialog';

// jsdom lays nothing out and has no element scrolling; Primer's SelectPanel scrolls its list
if (typeof Element.prototype.scrollTo !== 'function') Element.prototype.scrollTo = () => undefined;
// …nor Primer's <live-region> element, which the panel announces its results through
if (!customElements.get('live-region')) {
  customElements.define('live-region', class extends HTMLElement {
    announce() {}
    announceFromElement() {}
    clear() {}
  });
}

const SHA = '0123456789abcdef0123456789abcdef01234567';
const BRANCHES = '/api/v4/projects/1/repository/branches';
const branch = (name: string) => ({ name, merged: false, protected: false, default: name === 'main', commit: { id: SHA } });

/** The Revert and Cherry-pick dialogs take their branch from the project's branches (the branches API), not from typed text. */
describe('PickDialog', () => {
  it('cherry-picks into a branch chosen from the branches that exist', async () => {
    const network = fakeNetwork([
      on('GET', BRANCHES, () => json(200, [branch('main'), branch('stable')], { 'X-Total': '2', 'X-Total-Pages': '1', 'X-Page': '1', 'X-Per-Page': '20' })),
      on('POST', `/api/v4/projects/1/repository/commits/${SHA}/cherry_pick`, () => json(201, { id: SHA, short_id: SHA.slice(0, 8), title: 'Picked' })),
    ]);
    const onClose = vi.fn();
    renderInApp(<PickDialog kind="cherry-pick" sha={SHA} projectId={1} fullPath="acme/app" defaultBranch="main" canPush onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Cherry-pick this merge request' });
    // no free text: the branch is a picker
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pick into branch: main' }));
    await userEvent.click(await screen.findByRole('option', { name: 'stable' }));
    await within(dialog).findByRole('button', { name: 'Pick into branch: stable' });
    expect(network.sent.some((request) => request.method === 'GET' && request.path === BRANCHES)).toBe(true);

    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Start a new merge request with these changes' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cherry-pick', exact: true } as never));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(network.sent.find((request) => request.method === 'POST')).toMatchObject({ method: 'POST', path: `/api/v4/projects/1/repository/commits/${SHA}/cherry_pick`, body: { branch: 'stable' } });
  });
});
