import { AccessLevel } from '@tributary/contracts/access-levels';
import type { MergeRequestWidgetData, MergeRequestWidgetProject } from '@tributary/contracts/merge-widget';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { GRAPHQL_PATH } from './api';
import { json, on, type Route } from '../../test-support/component';

/**
 * The merge widget's inputs for component tests: the REST project and merge request the page
 * passes in, and MERGE_REQUEST_WIDGET_QUERY's answer, an open mergeable request by default.
 */
export const PROJECT = { id: 1, path_with_namespace: 'acme/app', permissions: { project_access: { access_level: AccessLevel.Maintainer }, group_access: null } } as unknown as Project;
export const MR = { id: 70, iid: 7, source_project_id: 1, target_project_id: 1, title: 'Add search' } as unknown as MergeRequest;

const ADA = { id: 'gid://gitlab/User/2', username: 'ada', name: 'Ada Lovelace', webUrl: '/ada', avatarUrl: null };

export function widgetData(change: Partial<MergeRequestWidgetData> = {}): MergeRequestWidgetData {
  return {
    id: 'gid://gitlab/MergeRequest/70',
    iid: '7',
    title: 'Add search',
    state: 'opened',
    draft: false,
    detailedMergeStatus: 'MERGEABLE',
    mergeabilityChecks: [
      { identifier: 'CONFLICT', status: 'SUCCESS' },
      { identifier: 'DRAFT_STATUS', status: 'SUCCESS' },
    ],
    commitCount: 2,
    commitsWithoutMergeCommits: { nodes: [] },
    defaultMergeCommitMessage: "Merge branch 'feature' into 'main'",
    defaultSquashCommitMessage: 'Add search',
    shouldRemoveSourceBranch: true,
    forceRemoveSourceBranch: false,
    squash: false,
    squashOnMerge: false,
    squashReadOnly: false,
    diffHeadSha: 'a'.repeat(40),
    sourceBranch: 'feature',
    targetBranch: 'main',
    sourceBranchExists: true,
    targetBranchExists: true,
    divergedCommitsCount: 0,
    rebaseInProgress: false,
    mergeOngoing: false,
    mergeError: null,
    mergeUser: null,
    mergedAt: null,
    mergeCommitSha: null,
    squashCommitSha: null,
    allowCollaboration: false,
    retargeted: false,
    mergedBy: null,
    closedBy: null,
    closedAt: null,
    blockingMergeRequests: { nodes: [] },
    userPermissions: {
      canMerge: true,
      removeSourceBranch: true,
      updateMergeRequest: true,
      adminMergeRequest: false,
      pushToSourceBranch: true,
      revertOnCurrentMergeRequest: false,
      cherryPickOnCurrentMergeRequest: false,
    },
    ...change,
  };
}

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
  return {
    id: 'gid://gitlab/Project/1',
    fullPath: 'acme/app',
    archived: false,
    mergeMethod: 'MERGE',
    mergeRequestsFfOnlyEnabled: false,
    onlyAllowMergeIfPipelineSucceeds: false,
    squashOption: 'default_off',
    mergeRequest: data,
    ...change,
  };
}

/** POST /api/graphql answering the widget query with the project of `answer()` (called per request). */
export const widgetRoute = (answer: () => MergeRequestWidgetProject): Route => on('POST', GRAPHQL_PATH, () => json(200, { data: { project: answer() } }));

/** A signed-in maintainer's session. */
export const sessionRoute: Route = on('GET', '/-/session', () =>
  json(200, { csrf_token: 'token', user: { id: 1, username: 'root', name: 'Root', state: 'active', avatar_url: null, web_url: '/root', is_admin: false } }),
);
