// @vitest-environment jsdom
import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData, MergeRequestWidgetProject } from '@tributary/contracts/merge-widget';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import { MergeWidget } from './MergeWidget';
import { MSG } from './messages';
import { MR, PROJECT, sessionRoute, calloutsRoute, widgetData, widgetProject, widgetRoute } from './widget-fixture';

/**
 * The merge train confirmations of the ready-to-merge panel: 'Merge immediately' while a train
 * strategy is preferred, the restart/skip choice where skipping is allowed, and 'Start merge
 * train' over a failed pipeline. Cancel sends nothing; confirming sends the merge with GitLab's
 * payload.
 */
const MERGE_PATH = '/api/v4/projects/1/merge_requests/7/merge';
const TRAIN_PIPELINE = { id: 'gid://gitlab/Ci::Pipeline/9', iid: '9', sha: 'a'.repeat(40), ref: 'refs/merge-requests/7/merge', project: { id: 'gid://gitlab/Project/1', fullPath: 'acme/app' }, finishedAt: null, status: 'SUCCESS', active: false, path: '/acme/app/-/pipelines/9', coverage: null, mergeRequestEventType: 'MERGED_RESULT', eventTypeName: 'Merged results pipeline', detailedStatus: { icon: 'status_success', text: 'Passed', label: 'passed', group: 'success' }, stages: { nodes: [] } } as const;

async function showWidget(data: MergeRequestWidgetData, project: Partial<MergeRequestWidgetProject> = {}) {
  const network = fakeNetwork([sessionRoute, calloutsRoute(), widgetRoute(() => widgetProject(data, project)), on('PUT', MERGE_PATH, () => json(200, {}))]);
  renderInApp(<MergeWidget project={PROJECT} mr={MR} />);
  await screen.findByRole('status');
  return { widget: screen.getByRole('region', { name: 'Merge status' }), network };
}

const merges = (network: { sent: { method: string; path: string; body?: unknown }[] }) => network.sent.filter((request) => request.method === 'PUT' && request.path === MERGE_PATH);
const onTrain = (change: Partial<MergeRequestWidgetData> = {}) => widgetData({ hasCi: true, headPipeline: TRAIN_PIPELINE as never, availableAutoMergeStrategies: ['merge_train'], preferredAutoMergeStrategy: 'merge_train', ...change });
const SKIP_ALLOWED = { ciCdSettings: { mergePipelinesEnabled: true, mergeTrainsSkipTrainAllowed: true } };

async function openMergeMoment(widget: HTMLElement) {
  await userEvent.click(await within(widget).findByRole('button', { name: t(MSG.mergeOptions) }));
}

describe('merge immediately while merge trains run', () => {
  it('asks first with Cancel focused; Cancel sends nothing', async () => {
    const { widget, network } = await showWidget(onTrain());
    await openMergeMoment(widget);
    await userEvent.click(screen.getByRole('menuitem', { name: t(MSG.mergeImmediately) }));
    const dialog = await screen.findByRole('dialog', { name: t(MSG.mergeImmediately) });
    expect(within(dialog).getByText(t(MSG.mergeImmediatelyConfirmation))).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'What are the risks?' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: t(MSG.cancel) })));
    await userEvent.click(within(dialog).getByRole('button', { name: t(MSG.cancel) }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(merges(network)).toEqual([]);
  });

  it('Merge immediately in the dialog merges now, without the train strategy and without skipping it', async () => {
    const { widget, network } = await showWidget(onTrain());
    await openMergeMoment(widget);
    await userEvent.click(screen.getByRole('menuitem', { name: t(MSG.mergeImmediately) }));
    const dialog = await screen.findByRole('dialog', { name: t(MSG.mergeImmediately) });
    await userEvent.click(within(dialog).getByRole('button', { name: t(MSG.mergeImmediately) }));
    await waitFor(() => expect(merges(network)).toHaveLength(1));
    const body = merges(network)[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ sha: 'a'.repeat(40), skip_merge_train: false });
    expect(body).not.toHaveProperty('auto_merge_strategy');
  });
});

describe('restart or skip the train, where the project allows skipping', () => {
  it.each([
    ['restart', MSG.restartTrain, MSG.restartTrainHelp, false],
    ['skip', MSG.skipTrain, MSG.skipTrainHelp, true],
  ] as const)('%s: the menu item and its dialog; Cancel sends nothing, confirming sends skip_merge_train only for skip', async (_, title, help, skip) => {
    const { widget, network } = await showWidget(onTrain(), SKIP_ALLOWED);
    await openMergeMoment(widget);
    expect(screen.queryByRole('menuitem', { name: t(MSG.mergeImmediately) })).toBeNull();
    const item = screen.getByRole('menuitem', { name: new RegExp(`^${t(title)}`) });
    expect(within(item).getByText(t(help))).toBeTruthy();
    await userEvent.click(item);
    let dialog = await screen.findByRole('dialog', { name: t(title) });
    await userEvent.click(within(dialog).getByRole('button', { name: t(MSG.cancel) }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(merges(network)).toEqual([]);

    await openMergeMoment(widget);
    await userEvent.click(screen.getByRole('menuitem', { name: new RegExp(`^${t(title)}`) }));
    dialog = await screen.findByRole('dialog', { name: t(title) });
    await userEvent.click(within(dialog).getByRole('button', { name: t(title) }));
    await waitFor(() => expect(merges(network)).toHaveLength(1));
    expect(merges(network)[0]!.body).toMatchObject({ skip_merge_train: skip });
  });
});

describe('adding to the train over a failed pipeline', () => {
  const failed = () => onTrain({ headPipeline: { ...TRAIN_PIPELINE, status: 'FAILED', detailedStatus: { icon: 'status_failed', text: 'Failed', label: 'failed', group: 'failed' } } as never });

  it("asks 'Start merge train' first; Cancel sends nothing", async () => {
    const { widget, network } = await showWidget(failed());
    await userEvent.click(await within(widget).findByRole('button', { name: t(MSG.merge) }));
    const dialog = await screen.findByRole('dialog', { name: t(MSG.startMergeTrain) });
    expect(within(dialog).getByText(t(MSG.trainFailedPipelineInfo))).toBeTruthy();
    expect(within(dialog).getByText(t(MSG.trainFailedPipelineConfirmation))).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(merges(network)).toEqual([]);
  });

  it('Start merge train adds it with the merge_train strategy', async () => {
    const { widget, network } = await showWidget(failed());
    await userEvent.click(await within(widget).findByRole('button', { name: t(MSG.merge) }));
    const dialog = await screen.findByRole('dialog', { name: t(MSG.startMergeTrain) });
    await userEvent.click(within(dialog).getByRole('button', { name: t(MSG.startMergeTrain) }));
    await waitFor(() => expect(merges(network)).toHaveLength(1));
    expect(merges(network)[0]!.body).toMatchObject({ auto_merge_strategy: 'merge_train', skip_merge_train: false });
  });

  it('a passed pipeline adds it at once', async () => {
    const { widget, network } = await showWidget(onTrain());
    await userEvent.click(await within(widget).findByRole('button', { name: t(MSG.merge) }));
    await waitFor(() => expect(merges(network)).toHaveLength(1));
    expect(merges(network)[0]!.body).toMatchObject({ auto_merge_strategy: 'merge_train' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the position on the train', () => {
  it("links 'View merge train details.' to the project's merge trains page", async () => {
    const { widget } = await showWidget(widgetData({ mergeTrainCar: { id: 'gid://gitlab/MergeTrains::Car/1', index: 1, user: null }, mergeTrainsCount: 2 }));
    expect(await within(widget).findByText(t(MSG.mergeTrainPosition, { mergeTrainPosition: 2, total: 2 }))).toBeTruthy();
    expect(within(widget).getByRole('link', { name: t(MSG.viewMergeTrainDetails) }).getAttribute('href')).toBe('/acme/app/-/merge_trains');
  });

  it("an open request taken off the train says 'Merge request was removed from the merge train.'", async () => {
    let onTrain = true;
    const network = fakeNetwork([
      sessionRoute,
      calloutsRoute(),
      widgetRoute(() => widgetProject(widgetData(onTrain ? { mergeTrainCar: { id: 'gid://gitlab/MergeTrains::Car/1', index: 0, user: null }, mergeTrainsCount: 1, autoMergeEnabled: true, autoMergeStrategy: 'merge_train' } : {}))),
      on('POST', '/api/v4/projects/1/merge_requests/7/cancel_merge_when_pipeline_succeeds', () => {
        onTrain = false;
        return json(201, {});
      }),
    ]);
    renderInApp(<MergeWidget project={PROJECT} mr={MR} />);
    const widget = await screen.findByRole('region', { name: 'Merge status' });
    await userEvent.click(await within(widget).findByRole('button', { name: t(MSG.removeFromMergeTrain) }));
    expect(await within(widget).findByText(t(MSG.removedFromMergeTrain))).toBeTruthy();
    expect(network.unanswered).toEqual([]);
  });
});
