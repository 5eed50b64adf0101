import { AccessLevel } from '@tributary/contracts/access-levels';
import type { MergeRequestWidgetData, MergeRequestWidgetProject } from '@tributary/contracts/merge-widget';
import { openMergeRequestWidget, widgetProjectOf } from '@tributary/contracts/merge-widget.fixture';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { GRAPHQL_PATH } from './api';
import { json, on, type Route } from '../../test-support/component';

/**
 * The merge widget's inputs for component tests: the REST project and merge request the page
 * passes in, and MERGE_REQUEST_WIDGET_QUERY's answer, an open mergeable request by default.
 */
export const PROJECT = { id: 1, path_with_namespace: 'acme/app', permissions: { project_access: { access_level: AccessLevel.Maintainer }, group_access: null } } as unknown as Project;
export const MR = { id: 70, iid: 7, source_project_id: 1, target_project_id: 1, title: 'Add search', author: { id: 3, username: 'grace', name: 'Grace Hopper' }, reviewers: [] } as unknown as MergeRequest;

const ADA = { id: 'gid://gitlab/User/2', username: 'ada', name: 'Ada Lovelace', webUrl: '/ada', avatarUrl: null };

/** MERGE_REQUEST_WIDGET_QUERY's merge request: the shared open, mergeable example (the server's query test checks its answer against it). */
export const widgetData = (change: Partial<MergeRequestWidgetData> = {}): MergeRequestWidgetData => openMergeRequestWidget(change);

export const MERGED_BY_ADA: Partial<MergeRequestWidgetData> = {
  state: 'merged',
  detailedMergeStatus: 'NOT_OPEN',
  mergedBy: ADA,
  mergeUser: ADA,
  mergedAt: '2026-11-27T10:00:00Z',
  mergeCommitSha: 'b'.repeat(40),
  sourceBranchExists: false,
};

export const CLOSED_BY_ADA: Partial<MergeRequestWidgetData> = { state: 'closed', detailedMergeStatus: 'NOT_OPEN', closedBy: ADA, closedAt: '2026-11-27T10:00:00Z' };

export function widgetProject(data: MergeRequestWidgetData, change: Partial<MergeRequestWidgetProject> = {}): MergeRequestWidgetProject {
  return widgetProjectOf(data, change);
}

/** POST /api/graphql answering the widget query with the project of `answer()` (called per request). */
export const widgetRoute = (answer: () => MergeRequestWidgetProject): Route => on('POST', GRAPHQL_PATH, () => json(200, { data: { project: answer() } }));

/** A signed-in maintainer's session. */
export const sessionRoute: Route = on('GET', '/-/session', () =>
  json(200, { csrf_token: 'token', user: { id: 1, username: 'root', name: 'Root', state: 'active', avatar_url: null, web_url: '/root', is_admin: false } }),
);

/** GET /-/users/callouts: the suggestion to add a pipeline dismissed unless `dismissed` says otherwise. */
export const calloutsRoute = (dismissed: string[] = ['suggest_pipeline']): Route => on('GET', '/-/users/callouts', () => json(200, { callouts: dismissed.map((feature_name) => ({ feature_name, dismissed_at: '2026-11-27T10:00:00Z' })) }));
