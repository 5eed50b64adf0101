// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { n, t } from '@tributary/contracts/i18n';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import { GRAPHQL_PATH } from './api';
import { MergeWidget } from './MergeWidget';
import { MSG } from './messages';
import { MR, PROJECT, sessionRoute, calloutsRoute, widgetData, widgetProject, widgetRoute } from './widget-fixture';

const MERGE_PATH = '/api/v4/projects/1/merge_requests/7/merge';
const REBASE_PATH = '/api/v4/projects/1/merge_requests/7/rebase';

async function showWidget(routes: Parameters<typeof fakeNetwork>[0]) {
  const network = fakeNetwork(routes);
  renderInApp(<MergeWidget project={PROJECT} mr={MR} />);
  await screen.findByRole('status');
  return { widget: screen.getByRole('region', { name: 'Merge status' }), network };
}

const widgetQueries = (sent: { method: string; path: string }[]) => sent.filter((request) => request.method === 'POST' && request.path === GRAPHQL_PATH).length;

describe('merging', () => {
  it('Merge sends the head it showed and the options chosen', async () => {
    const { widget, network } = await showWidget([sessionRoute, calloutsRoute(), widgetRoute(() => widgetProject(widgetData())), on('PUT', MERGE_PATH, () => json(200, {}))]);
    await userEvent.click(within(widget).getByRole('checkbox', { name: t(MSG.deleteSourceBranch) }));
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.merge) }));
    await waitFor(() => expect(network.sent.some((request) => request.path === MERGE_PATH)).toBe(true));
    expect(network.sent.find((request) => request.path === MERGE_PATH)?.body).toMatchObject({ sha: 'a'.repeat(40), should_remove_source_branch: false });
  });

  it('a refused merge shows the failed-to-merge panel, counts down, and Refresh now reads the widget again', async () => {
    const { widget, network } = await showWidget([
      sessionRoute,
      calloutsRoute(),
      widgetRoute(() => widgetProject(widgetData())),
      on('PUT', MERGE_PATH, () => json(422, { message: 'Branch cannot be merged' })),
    ]);
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.merge) }));

    // the server's reason with one closing period, and the 10-second countdown
    expect(await within(widget).findByText('Branch cannot be merged.')).toBeTruthy();
    expect(within(widget).getByText(n(MSG.refreshingIn, MSG.refreshingInMany, 10))).toBeTruthy();
    expect(within(widget).queryByRole('button', { name: t(MSG.merge) })).toBeNull();
    // it counts down (waited for as a state, however long the loaded machine takes for a second)
    expect(await within(widget).findByText(n(MSG.refreshingIn, MSG.refreshingInMany, 9), {}, { timeout: 5000 })).toBeTruthy();

    const before = widgetQueries(network.sent);
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.refreshNow) }));
    await waitFor(() => expect(widgetQueries(network.sent)).toBeGreaterThan(before));
    // the fresh answer (still mergeable) brings the merge controls back
    expect(await within(widget).findByRole('button', { name: t(MSG.merge) })).toBeTruthy();
  });
});

describe('the rebase dialog', () => {
  const behind = () => widgetProject(widgetData({ divergedCommitsCount: 2 }));

  it('opens from Rebase source branch by keyboard with Cancel focused; Escape closes it, focus returns, nothing is sent', async () => {
    const { widget, network } = await showWidget([sessionRoute, calloutsRoute(), widgetRoute(behind)]);
    expect(within(widget).getByRole('link', { name: n(MSG.commitsBehindOne, MSG.commitsBehindMany, 2) })).toBeTruthy();
    const open = within(widget).getByRole('button', { name: t(MSG.rebaseSourceBranch) });
    open.focus();
    await userEvent.keyboard('{Enter}');

    const dialog = await screen.findByRole('dialog', { name: t(MSG.rebaseDialogTitle) });
    expect(within(dialog).getByText(t(MSG.rebaseDialogBody))).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: t(MSG.rebase) })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: t(MSG.cancel) })));

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // focus goes back to the button that opened it
    await waitFor(() => expect(document.activeElement).toBe(open));
    expect(network.sent.some((request) => request.path === REBASE_PATH)).toBe(false);
  });

  it('Rebase schedules the rebase and says so', async () => {
    const { widget, network } = await showWidget([sessionRoute, calloutsRoute(), widgetRoute(behind), on('PUT', REBASE_PATH, () => json(202, { rebase_in_progress: true }))]);
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.rebaseSourceBranch) }));
    const dialog = await screen.findByRole('dialog', { name: t(MSG.rebaseDialogTitle) });
    await userEvent.click(within(dialog).getByRole('button', { name: t(MSG.rebase) }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(widget).findByText(t(MSG.rebaseScheduled, { branch: 'feature' }))).toBeTruthy();
    expect(network.sent.filter((request) => request.path === REBASE_PATH)).toHaveLength(1);
  });

  it("a refused rebase shows the server's message", async () => {
    const { widget } = await showWidget([sessionRoute, calloutsRoute(), widgetRoute(behind), on('PUT', REBASE_PATH, () => json(403, { message: 'Cannot push to source branch' }))]);
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.rebaseSourceBranch) }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t(MSG.rebase) }));
    expect(await within(widget).findByText('Cannot push to source branch')).toBeTruthy();
  });
});
