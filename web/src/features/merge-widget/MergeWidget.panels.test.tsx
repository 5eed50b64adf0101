// @vitest-environment jsdom
import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData, MergeRequestWidgetProject } from '@tributary/contracts/merge-widget';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp, type Route } from '../../test-support/component';
import { MergeWidget } from './MergeWidget';
import { MSG } from './messages';
import { CLOSED_BY_ADA, MERGED_BY_ADA, MR, PROJECT, sessionRoute, calloutsRoute, widgetData, widgetProject, widgetRoute } from './widget-fixture';

/** The widget as a signed-in maintainer sees it, from one GraphQL answer. */
async function showWidget(data: MergeRequestWidgetData, project: Partial<MergeRequestWidgetProject> = {}, writes: Route[] = []) {
  const network = fakeNetwork([sessionRoute, calloutsRoute(), widgetRoute(() => widgetProject(data, project)), ...writes]);
  renderInApp(<MergeWidget project={PROJECT} mr={MR} />);
  // the loaded widget is a new region (the skeleton's had no live region)
  await screen.findByRole('status');
  const widget = screen.getByRole('region', { name: 'Merge status' });
  return { widget, network };
}

describe("the merge widget's state panels, from the widget query's answer", () => {
  it.each([
    ['merged', widgetData(MERGED_BY_ADA), {}, [t(MSG.mergedBy, { name: 'Ada Lovelace' }), t(MSG.mergeDetails)]],
    ['closed', widgetData(CLOSED_BY_ADA), {}, [t(MSG.closedBy, { name: 'Ada Lovelace' }), t(MSG.mergeDetails)]],
    ['archived', widgetData(), { archived: true }, [t(MSG.archived)]],
    ['nothing to merge', widgetData({ commitCount: 0 }), {}, [t(MSG.nothingToMerge), t(MSG.nothingToMergeHelp)]],
    ['checking', widgetData({ detailedMergeStatus: 'CHECKING' }), {}, [t(MSG.checking)]],
    ['preparing', widgetData({ detailedMergeStatus: 'PREPARING' }), {}, [t(MSG.preparing)]],
    ['missing source branch', widgetData({ sourceBranchExists: false }), {}, [t(MSG.missingBranchRestore, { type: 'source' })]],
  ] as const)('%s', async (_, data, project, texts) => {
    const { widget, network } = await showWidget(data, project);
    // each shows in the panel (and the main ones again in the live region)
    for (const text of texts) expect(within(widget).getAllByText(text).length).toBeGreaterThan(0);
    // a state panel replaces the merge controls
    expect(within(widget).queryByRole('button', { name: MSG.merge })).toBeNull();
    expect(network.unanswered).toEqual([]);
  });

  it('merged: the merged panel offers nothing to delete once the branch is gone, and says so', async () => {
    const { widget } = await showWidget(widgetData({ ...MERGED_BY_ADA, shouldRemoveSourceBranch: true }));
    expect(await within(widget).findByText(t(MSG.sourceBranchDeleted))).toBeTruthy();
    expect(within(widget).queryByRole('button', { name: t(MSG.deleteSourceBranch) })).toBeNull();
  });
});

describe("the closed and merged panels' actions", () => {
  it('closed: Reopen asks the server, and a refusal shows its error', async () => {
    const { widget, network } = await showWidget(widgetData(CLOSED_BY_ADA), {}, [on('PUT', '/api/v4/projects/1/merge_requests/7', () => json(500, { message: '500 Internal Server Error' }))]);
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.reopen) }));
    expect((await within(widget).findByRole('alert')).textContent).toBe(t(MSG.reopenError));
    expect(network.sent.find((request) => request.method === 'PUT')?.body).toEqual({ state_event: 'reopen' });
    expect(network.unanswered).toEqual([]);
  });

  it('merged with the branch still there: Delete source branch deletes it', async () => {
    const { widget, network } = await showWidget(widgetData({ ...MERGED_BY_ADA, sourceBranchExists: true }), {}, [
      on('DELETE', '/api/v4/projects/1/repository/branches/feature', () => new Response(null, { status: 204 })),
    ]);
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.deleteSourceBranch) }));
    await waitFor(() => expect(network.sent.some((request) => request.method === 'DELETE')).toBe(true));
    expect(network.unanswered).toEqual([]);
  });
});

describe('ready to merge', () => {
  it('shows the options, the commit summary and an enabled Merge button', async () => {
    const { widget } = await showWidget(widgetData());
    const options = await within(widget).findByRole('group', { name: 'Merge options' });
    expect(within(widget).getAllByText(t(MSG.readyToMerge)).length).toBeGreaterThan(0);
    const remove = within(options).getByRole('checkbox', { name: t(MSG.deleteSourceBranch) });
    expect((remove as HTMLInputElement).checked).toBe(true);
    expect(within(options).getByRole('checkbox', { name: t(MSG.squashCommits) })).toBeTruthy();
    const edit = within(options).getByRole('checkbox', { name: t(MSG.editCommitMessage) });
    expect(within(options).getByRole('button', { name: t(MSG.merge) }).hasAttribute('disabled')).toBe(false);

    // the commit message editor opens on the server's default message
    await userEvent.click(edit);
    expect((within(options).getByRole('textbox', { name: t(MSG.mergeCommitMessage) }) as HTMLTextAreaElement).value).toBe("Merge branch 'feature' into 'main'");
  });

  it('a user who may not merge sees the details and no options', async () => {
    const data = widgetData();
    const { widget } = await showWidget({ ...data, userPermissions: { ...data.userPermissions, canMerge: false } });
    expect(await within(widget).findByText(t(MSG.notAllowedToMerge))).toBeTruthy();
    expect(within(widget).queryByRole('checkbox')).toBeNull();
    expect(within(widget).queryByRole('button', { name: t(MSG.merge) })).toBeNull();
  });
});

describe('the merge checks block', () => {
  it('names how many checks failed, lists every failed one, and expands to all of them', async () => {
    const checks: MergeRequestWidgetData['mergeabilityChecks'] = [
      { identifier: 'DRAFT_STATUS', status: 'FAILED' },
      { identifier: 'CONFLICT', status: 'FAILED' },
      { identifier: 'DISCUSSIONS_NOT_RESOLVED', status: 'SUCCESS' },
    ];
    const { widget } = await showWidget(widgetData({ detailedMergeStatus: 'DRAFT_STATUS', draft: true, mergeabilityChecks: checks }));
    const block = await within(widget).findByRole('group', { name: 'Merge checks' });
    expect(within(block).getByText(t(MSG.checksBlockedMany, { count: 2 }))).toBeTruthy();
    const list = within(block).getByRole('list', { name: 'Merge check results' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    // the draft check's way out
    expect(within(list).getByRole('button', { name: t(MSG.markAsReady) })).toBeTruthy();
    // the Merge button stays, disabled, for a user who could merge once the checks pass
    expect(within(widget).getByRole('button', { name: t(MSG.merge) }).hasAttribute('disabled')).toBe(true);

    const expand = within(block).getByRole('button', { name: t(MSG.expandChecks) });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(expand);
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    const collapse = within(block).getByRole('button', { name: t(MSG.collapseChecks) });
    expect(collapse.getAttribute('aria-expanded')).toBe('true');
  });
});

describe('a request on its merge train', () => {
  const GRACE = { id: 'gid://gitlab/User/3', username: 'grace', name: 'Grace Hopper', webUrl: '/grace', avatarUrl: null };

  it("says who added it and its place in the queue; 'Remove from merge train' takes it off", async () => {
    const data = widgetData({ mergeTrainCar: { id: 'gid://gitlab/MergeTrains::Car/1', index: 1, user: GRACE }, mergeTrainsCount: 3 });
    const { widget, network } = await showWidget(data, {}, [on('POST', '/api/v4/projects/1/merge_requests/7/cancel_merge_when_pipeline_succeeds', () => json(201, {}))]);
    expect(await within(widget).findByText(t(MSG.addedToMergeTrainBy, { mergeAuthor: 'Grace Hopper' }))).toBeTruthy();
    expect(within(widget).getByText(t(MSG.mergeTrainPosition, { mergeTrainPosition: 2, total: 3 }))).toBeTruthy();
    // its panel replaces the merge controls
    expect(within(widget).queryByRole('button', { name: MSG.merge })).toBeNull();
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.removeFromMergeTrain) }));
    await waitFor(() => expect(network.sent.some((request) => request.method === 'POST' && request.path.endsWith('/cancel_merge_when_pipeline_succeeds'))).toBe(true));
    expect(network.unanswered).toEqual([]);
  });

  it('the front car: a new merge train has started', async () => {
    const { widget } = await showWidget(widgetData({ mergeTrainCar: { id: 'gid://gitlab/MergeTrains::Car/1', index: 0, user: GRACE }, mergeTrainsCount: 1 }));
    expect(await within(widget).findByText(t(MSG.mergeTrainFirst))).toBeTruthy();
  });
});
