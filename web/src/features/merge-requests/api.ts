import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { Query } from '../../lib/api-client';
import type { DiffVersionEntity } from '../../lib/diff-versions';
import type { CommitDiff, PushEvent, CommitSummary, Comparison, MergeRequest, MergeRequestBasic, Member, UserBasic } from '../../lib/gitlab-types';
import { apiQuery, countQuery, LIST_STATES, type ListParams, type ListState } from './list-params';

/**
 * The merge request calls of GitLab's REST API v4 (doc/api/merge_requests.md): lists,
 * one merge request, its commits, diffs and versions, create and update; plus the compare
 * and user searches the new merge request form needs.
 */
export const COMMITS_PER_PAGE = 20;
/** Versions per page; a merge request rarely has more, and the dropdown shows them all. */
const VERSIONS_PER_PAGE = 100;
/** Users offered by a search. */
const USERS_PER_SEARCH = 20;

/** Everything about merge requests lives under this key, so one invalidation refreshes lists, counts and pages. */
export const mergeRequestKeys = {
  all: ['merge-requests'] as const,
  lists: () => [...mergeRequestKeys.all, 'list'] as const,
  list: (scope: number | 'dashboard', params: ListParams, extra: Query) => [...mergeRequestKeys.lists(), scope, params, extra] as const,
  counts: (scope: number | 'dashboard', params: Omit<ListParams, 'state' | 'page'>, extra: Query) => [...mergeRequestKeys.lists(), 'counts', scope, params, extra] as const,
  forBranch: (projectId: number, branch: string) => [...mergeRequestKeys.lists(), 'branch', projectId, branch] as const,
  detail: (projectId: number, iid: number) => [...mergeRequestKeys.all, 'detail', projectId, iid] as const,
  commits: (projectId: number, iid: number, page: number) => [...mergeRequestKeys.detail(projectId, iid), 'commits', page] as const,
  diffs: (projectId: number, iid: number, headSha: string) => [...mergeRequestKeys.detail(projectId, iid), 'diffs', headSha] as const,
  versions: (projectId: number, iid: number) => [...mergeRequestKeys.detail(projectId, iid), 'versions'] as const,
  version: (projectId: number, iid: number, versionId: number) => [...mergeRequestKeys.detail(projectId, iid), 'version', versionId] as const,
};

const listPath = (scope: number | 'dashboard') => (scope === 'dashboard' ? '/merge_requests' : `/projects/${scope}/merge_requests`);
const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

/** One page of a list: a project's (`scope` = project id) or the caller's across the instance. */
export const mergeRequestListQuery = (scope: number | 'dashboard', params: ListParams, extra: Query = {}) =>
  queryOptions({
    queryKey: mergeRequestKeys.list(scope, params, extra),
    queryFn: ({ signal }) => api.getPage<MergeRequestBasic>(listPath(scope), { signal, query: apiQuery(params, params.state, extra) }),
    placeholderData: keepPreviousData,
  });

/** How many merge requests each state tab holds, from X-Total of one-item pages. */
export const mergeRequestCountsQuery = (scope: number | 'dashboard', params: Omit<ListParams, 'state' | 'page'>, extra: Query = {}) =>
  queryOptions({
    queryKey: mergeRequestKeys.counts(scope, params, extra),
    queryFn: async ({ signal }) => {
      const totals = await Promise.all(
        LIST_STATES.map(async (state) => {
          const page = await api.getPage<MergeRequestBasic>(listPath(scope), { signal, query: countQuery({ ...params, page: 1 }, state, extra) });
          return [state, page.pageInfo.total] as const;
        }),
      );
      return Object.fromEntries(totals) as Record<ListState, number | null>;
    },
    placeholderData: keepPreviousData,
  });

/** Open merge requests from one source branch (the "Create merge request" banner). */
export const openMergeRequestsForBranchQuery = (projectId: number, branch: string) =>
  queryOptions({
    queryKey: mergeRequestKeys.forBranch(projectId, branch),
    queryFn: ({ signal }) =>
      api.get<MergeRequestBasic[]>(`/projects/${projectId}/merge_requests`, { signal, query: { source_branch: branch, state: 'opened', per_page: 1 } }),
  });

/** Branches most recently updated first, for the push banner. */
/** The signed-in user's pushes to a project (GET /projects/:id/events?action=pushed&author_id=). */
export const myRecentPushesQuery = (projectId: number, userId: number) =>
  queryOptions({
    queryKey: ['projects', projectId, 'events', 'pushed', userId] as const,
    queryFn: ({ signal }) => api.get<PushEvent[]>(`/projects/${projectId}/events`, { signal, query: { action: 'pushed', author_id: userId, per_page: 20 } }),
    staleTime: 10_000,
  });

export const mergeRequestQuery = (projectId: number, iid: number) =>
  queryOptions({
    queryKey: mergeRequestKeys.detail(projectId, iid),
    queryFn: ({ signal }) => api.get<MergeRequest>(mrPath(projectId, iid), { signal }),
  });

export const mergeRequestCommitsQuery = (projectId: number, iid: number, page: number) =>
  queryOptions({
    queryKey: mergeRequestKeys.commits(projectId, iid, page),
    queryFn: ({ signal }) => api.getPage<CommitSummary>(`${mrPath(projectId, iid)}/commits`, { signal, query: { page, per_page: COMMITS_PER_PAGE } }),
    placeholderData: keepPreviousData,
  });

export const mergeRequestVersionsQuery = (projectId: number, iid: number) =>
  queryOptions({
    queryKey: mergeRequestKeys.versions(projectId, iid),
    queryFn: ({ signal }) => api.get<DiffVersionEntity[]>(`${mrPath(projectId, iid)}/versions`, { signal, query: { per_page: VERSIONS_PER_PAGE } }),
  });

/** One version with every file (GitLab's Entities::MergeRequestDiffFull). A version never changes. */
export const mergeRequestVersionQuery = (projectId: number, iid: number, versionId: number) =>
  queryOptions({
    queryKey: mergeRequestKeys.version(projectId, iid, versionId),
    queryFn: ({ signal }) => api.get<DiffVersionEntity & { commits: CommitSummary[]; diffs: CommitDiff[] }>(`${mrPath(projectId, iid)}/versions/${versionId}`, { signal }),
    staleTime: Infinity,
  });

/**
 * GET /projects/:id/repository/compare. `from_project_id` names the project `from` is in
 * (a fork's merge request compares with its upstream's target branch).
 */
export const compareQuery = (projectId: number, from: string, to: string, options: { straight?: boolean; fromProjectId?: number } = {}) =>
  queryOptions({
    queryKey: ['projects', projectId, 'compare', from, to, options] as const,
    queryFn: ({ signal }) =>
      api.get<Comparison>(`/projects/${projectId}/repository/compare`, {
        signal,
        query: { from, to, straight: options.straight, from_project_id: options.fromProjectId },
      }),
    staleTime: 60_000,
  });

/** People who can be assigned or asked to review: the project's members, inherited ones included. */
export const projectUsersQuery = (projectId: number, search: string) =>
  queryOptions({
    queryKey: ['projects', projectId, 'members', 'all', search] as const,
    queryFn: ({ signal }) => api.get<Member[]>(`/projects/${projectId}/members/all`, { signal, query: { query: search, per_page: USERS_PER_SEARCH } }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** Anyone on the instance (the dashboard's filters). */
export const usersSearchQuery = (search: string) =>
  queryOptions({
    queryKey: ['users', 'search', search] as const,
    queryFn: ({ signal }) => api.get<UserBasic[]>('/users', { signal, query: { search, per_page: USERS_PER_SEARCH } }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export interface CreateMergeRequestInput {
  source_branch: string;
  target_branch: string;
  title: string;
  description: string;
  assignee_ids: number[];
  reviewer_ids: number[];
  remove_source_branch: boolean;
  squash: boolean;
  target_project_id?: number;
  allow_collaboration?: boolean;
  /** label titles, comma-separated (GitLab's `labels`) */
  labels?: string;
  milestone_id?: number;
}

/** POST /projects/:id/merge_requests, on the source project (a fork names its target project). */
export const createMergeRequestMutation = (sourceProjectId: number) =>
  mutationOptions({
    mutationKey: [...mergeRequestKeys.all, 'create', sourceProjectId],
    mutationFn: (input: CreateMergeRequestInput) => api.post<MergeRequest>(`/projects/${sourceProjectId}/merge_requests`, { body: input }),
  });

export interface UpdateMergeRequestInput {
  title?: string;
  description?: string;
  target_branch?: string;
  state_event?: 'close' | 'reopen';
  assignee_ids?: number[];
  reviewer_ids?: number[];
  remove_source_branch?: boolean;
  squash?: boolean;
  allow_collaboration?: boolean;
  /** label titles, comma-joined or a list (replaces every label) */
  labels?: string;
  add_labels?: string;
  remove_labels?: string;
  /** 0 removes the milestone */
  milestone_id?: number;
}

export const updateMergeRequestMutation = (projectId: number, iid: number) =>
  mutationOptions({
    mutationKey: [...mergeRequestKeys.detail(projectId, iid), 'update'],
    mutationFn: (input: UpdateMergeRequestInput) => api.put<MergeRequest>(mrPath(projectId, iid), { body: input }),
  });

/** Open merge requests of a project, for the project's tab counter (X-Total of a one-item page). */
export const openMergeRequestCountQuery = (projectId: number) =>
  queryOptions({
    queryKey: [...mergeRequestKeys.lists(), 'open-count', projectId] as const,
    queryFn: async ({ signal }) => {
      const page = await api.getPage<MergeRequestBasic>(`/projects/${projectId}/merge_requests`, { signal, query: { state: 'opened', per_page: 1 } });
      return page.pageInfo.total;
    },
    staleTime: 60_000,
  });
