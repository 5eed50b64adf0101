// @vitest-environment jsdom
import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData, MergeRequestWidgetProject, WidgetHeadPipeline } from '@tributary/contracts/merge-widget';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp, type Route } from '../../test-support/component';
import { MergeWidget } from './MergeWidget';
import { MSG } from './messages';
import { calloutsRoute, MERGED_BY_ADA, MR, PROJECT, sessionRoute, widgetData, widgetProject, widgetRoute } from './widget-fixture';

const MERGE_PATH = '/api/v4/projects/1/merge_requests/7/merge';
const RUN_PATH = '/api/v4/projects/1/merge_requests/7/pipelines';

const pipeline = (status: string, group: string, change: Partial<WidgetHeadPipeline> = {}): WidgetHeadPipeline => ({
  id: 'gid://gitlab/Ci::Pipeline/5',
  iid: '3',
  sha: 'a'.repeat(40),
  ref: 'refs/merge-requests/7/head',
  project: { id: 'gid://gitlab/Project/1', fullPath: 'acme/app' },
  finishedAt: null,
  status,
  active: status === 'RUNNING',
  path: '/acme/app/-/pipelines/5',
  coverage: null,
  mergeRequestEventType: 'DETACHED',
  eventTypeName: 'Merge request pipeline',
  detailedStatus: { icon: `status_${group}`, text: group, label: group, group },
  stages: { nodes: [{ name: 'test', status: group, detailedStatus: { icon: `status_${group}`, text: group, label: group, group } }] },
  ...change,
});

const job = (status: string) => ({ id: 9, status, stage: 'test', name: 'rspec', allow_failure: false, detailed_status: { icon: `status_${status}`, text: status, label: status, group: status, tooltip: status, has_details: true, details_path: '/acme/app/-/jobs/9' } });
const jobRoutes = (status: string): Route[] => [on('GET', '/api/v4/projects/1/pipelines/5/jobs', () => json(200, [job(status)])), on('GET', '/api/v4/projects/1/pipelines/5/bridges', () => json(200, []))];

async function showWidget(data: MergeRequestWidgetData, options: { project?: Partial<MergeRequestWidgetProject>; routes?: Route[]; dismissed?: string[] } = {}) {
  // no job exposes artifacts (GitLab's 204)
  const exposedArtifacts = on('GET', '/acme/app/-/merge_requests/7/exposed_artifacts.json', () => new Response(null, { status: 204 }));
  const network = fakeNetwork([sessionRoute, calloutsRoute(options.dismissed), widgetRoute(() => widgetProject(data, options.project)), ...jobRoutes('running'), exposedArtifacts, ...(options.routes ?? [])]);
  renderInApp(<MergeWidget project={PROJECT} mr={MR} />);
  await screen.findByRole('status');
  return { widget: screen.getByRole('region', { name: 'Merge status' }), network };
}

describe('the pipeline container', () => {
  it('shows a running pipeline: event type, #id, status, mini graph, commit and branch; its help popover', async () => {
    const { widget, network } = await showWidget(widgetData({ hasCi: true, headPipeline: pipeline('RUNNING', 'running', { coverage: 87.5 }) }));
    const container = within(widget).getByRole('group', { name: 'Pipeline' });
    expect(within(container).getByRole('link', { name: '#5' }).getAttribute('href')).toBe('/acme/app/-/pipelines/5');
    expect(within(container).getByRole('link', { name: 'Commit aaaaaaaa' }).getAttribute('href')).toBe(`/acme/app/-/commit/${'a'.repeat(40)}`);
    expect(within(container).getByText('feature')).toBeTruthy();
    // the head pipeline's coverage is the reports' line (with its change against the target), not the container's
    expect(within(container).queryByText(/Test coverage/)).toBeNull();
    expect(await within(container).findByRole('group', { name: 'Pipeline mini graph' })).toBeTruthy();
    await userEvent.click(within(container).getByRole('button', { name: t(MSG.mergeRequestHelpTitle) }));
    expect(await screen.findByText(t(MSG.mergeRequestHelp))).toBeTruthy();
    // the reports read the test summary beside the container (not answered here)
    expect(network.unanswered.filter((request) => !request.path.endsWith('/test_reports.json'))).toEqual([]);
  });

  it("says 'Checking pipeline status.' while the request has CI but no pipeline yet", async () => {
    const { widget } = await showWidget(widgetData({ hasCi: true, headPipeline: null }));
    expect(within(widget).getByText(t(MSG.checkingPipeline))).toBeTruthy();
    expect(within(widget).getByRole('link', { name: t(MSG.pipelineTroubleshooting) })).toBeTruthy();
  });

  it('says it could not retrieve the status of a pipeline without one, with the troubleshooting link', async () => {
    const { widget } = await showWidget(widgetData({ hasCi: true, headPipeline: pipeline('', 'failed') }));
    expect(within(widget).getByText(/Could not retrieve the pipeline status\. For troubleshooting steps, read the/)).toBeTruthy();
    expect(within(widget).getByRole('link', { name: 'documentation' })).toBeTruthy();
  });

  it('after a retarget advises a new pipeline; Run pipeline asks the server, a refusal says so', async () => {
    let answer = 403;
    const { widget, network } = await showWidget(
      widgetData({ hasCi: true, retargeted: true, pipelineRetargetedWarning: t(MSG.retargeted), headPipeline: pipeline('SUCCESS', 'success') }),
      { routes: [on('POST', RUN_PATH, () => json(answer, { message: answer === 403 ? '403 Forbidden' : '500 Internal Server Error' }))] },
    );
    expect(within(widget).getByText(t(MSG.retargeted))).toBeTruthy();
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.runPipeline) }));
    expect(await within(widget).findByText(t(MSG.runPipelineForbidden))).toBeTruthy();
    answer = 500;
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.runPipeline) }));
    expect(await within(widget).findByText(t(MSG.runPipelineError))).toBeTruthy();
    expect(network.sent.filter((request) => request.method === 'POST' && request.path === RUN_PATH)).toHaveLength(2);
  });

  it('warns when merged results pipelines are on and the source is a fork', async () => {
    const { widget } = await showWidget(widgetData({ mergePipelinesForkWarning: true }));
    expect(within(widget).getByText(t(MSG.forkMergePipelines))).toBeTruthy();
  });

  it('shows the post-merge pipeline below a merged request, on the target branch', async () => {
    const { widget } = await showWidget(widgetData({ ...MERGED_BY_ADA, hasCi: true, mergePipeline: pipeline('RUNNING', 'running', { eventTypeName: 'Pipeline', mergeRequestEventType: null }) }));
    const container = within(widget).getByRole('group', { name: 'Post-merge pipeline' });
    expect(within(container).getByText('main')).toBeTruthy();
    expect(within(widget).queryByRole('group', { name: 'Pipeline' })).toBeNull();
  });
});

describe('the Merge button and its dialog', () => {
  it("a failed pipeline: 'Merge…' asks 'Merge unverified changes?'; Cancel closes it, 'Merge unverified changes' merges", async () => {
    const { widget, network } = await showWidget(widgetData({ hasCi: true, headPipeline: pipeline('FAILED', 'failed') }), { routes: [on('PUT', MERGE_PATH, () => json(200, {}))] });
    const button = within(widget).getByRole('button', { name: t(MSG.mergeEllipsis) });
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: t(MSG.unverifiedTitle) });
    expect(within(dialog).getByText(t(MSG.unverifiedConfirmation))).toBeTruthy();
    expect(within(dialog).getByText(t(MSG.unverifiedInfo))).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: t(MSG.runPipeline) })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: t(MSG.cancel) }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(network.sent.some((request) => request.path === MERGE_PATH)).toBe(false);

    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.mergeEllipsis) }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t(MSG.mergeUnverified) }));
    await waitFor(() => expect(network.sent.some((request) => request.path === MERGE_PATH)).toBe(true));
  });

  it("the dialog's Run pipeline runs one instead of merging", async () => {
    const { widget, network } = await showWidget(widgetData({ hasCi: true, headPipeline: pipeline('CANCELED', 'canceled') }), { routes: [on('POST', RUN_PATH, () => json(201, { id: 6 }))] });
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.mergeEllipsis) }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t(MSG.runPipeline) }));
    await waitFor(() => expect(network.sent.some((request) => request.method === 'POST' && request.path === RUN_PATH)).toBe(true));
    expect(network.sent.some((request) => request.path === MERGE_PATH)).toBe(false);
  });

  it("a passed pipeline merges with 'Merge', no dialog", async () => {
    const { widget, network } = await showWidget(widgetData({ hasCi: true, headPipeline: pipeline('SUCCESS', 'success') }), { routes: [on('PUT', MERGE_PATH, () => json(200, {}))] });
    await userEvent.click(within(widget).getByRole('button', { name: t(MSG.merge) }));
    await waitFor(() => expect(network.sent.some((request) => request.path === MERGE_PATH)).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a pipeline blocked on a manual job, when pipelines must succeed, keeps Merge disabled', async () => {
    const { widget } = await showWidget(
      widgetData({
        hasCi: true,
        detailedMergeStatus: 'CI_STILL_RUNNING',
        mergeabilityChecks: [
          { identifier: 'CI_STILL_RUNNING', status: 'FAILED' },
          { identifier: 'CI_MUST_PASS', status: 'FAILED' },
        ],
        headPipeline: pipeline('MANUAL', 'manual'),
      }),
      { project: { onlyAllowMergeIfPipelineSucceeds: true } },
    );
    expect(within(widget).getByRole('button', { name: t(MSG.merge) }).hasAttribute('disabled') || within(widget).getByRole('button', { name: t(MSG.merge) }).getAttribute('aria-disabled') === 'true').toBe(true);
    expect(within(widget).getByText('Pipeline must succeed.')).toBeTruthy();
    expect(within(widget).getByText('Merge blocked: 1 check failed')).toBeTruthy();
  });
});

describe('the suggestion to add a pipeline', () => {
  it('shows without CI to someone who may push, links to the New file form, and dismissing records the callout', async () => {
    const { widget, network } = await showWidget(widgetData({ hasCi: false }), { dismissed: [], routes: [on('POST', '/-/users/callouts', () => json(200, { feature_name: 'suggest_pipeline' }))] });
    const suggestion = await within(widget).findByRole('group', { name: t(MSG.suggestPipelineTitle) });
    const link = within(suggestion).getByRole('link', { name: t(MSG.tryPipelines) });
    expect(link.getAttribute('href')).toBe('/acme/app/-/new/feature?file_name=.gitlab-ci.yml&commit_message=Add+.gitlab-ci.yml');
    expect(within(suggestion).getByRole('link', { name: t(MSG.suggestPipelineHelpLink) })).toBeTruthy();
    await userEvent.click(within(suggestion).getByRole('button', { name: t(MSG.dismiss) }));
    await waitFor(() => expect(within(widget).queryByRole('group', { name: t(MSG.suggestPipelineTitle) })).toBeNull());
    expect(network.sent.find((request) => request.method === 'POST' && request.path === '/-/users/callouts')?.body).toEqual({ feature_name: 'suggest_pipeline' });
  });

  it('stays hidden once dismissed, and for someone who may not push', async () => {
    const { widget } = await showWidget(widgetData({ hasCi: false }), { dismissed: ['suggest_pipeline'] });
    expect(within(widget).queryByRole('group', { name: t(MSG.suggestPipelineTitle) })).toBeNull();
  });

  it('is not offered to someone who may not push to the source branch', async () => {
    const data = widgetData({ hasCi: false });
    const { widget, network } = await showWidget({ ...data, userPermissions: { ...data.userPermissions, pushToSourceBranch: false } }, { dismissed: [] });
    expect(within(widget).queryByRole('group', { name: t(MSG.suggestPipelineTitle) })).toBeNull();
    expect(network.sent.some((request) => request.path === '/-/users/callouts')).toBe(false);
  });
});
