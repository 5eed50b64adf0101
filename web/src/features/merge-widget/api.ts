import { mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  MERGE_REQUEST_WIDGET_QUERY,
  POLL_INTERVAL_HEADER,
  type MergeRequestWidgetProject,
  type MergeRequestWidgetQueryResult,
} from '@tributary/contracts/merge-widget';
import { api, queryClient, SESSION_QUERY_KEY } from '../../app/client';
import { CSRF_HEADER } from '../../lib/api-client';
import { apiErrorFromBody } from '../../lib/api-error';
import type { MergeRequest, Session } from '../../lib/gitlab-types';
import type { MergeRequestPayload } from './merge-button';
import { parsePollInterval } from './polling';

/**
 * The merge widget's calls: the widget query on POST /api/graphql (the same cookie session
 * and X-CSRF-Token header as every REST call), and the REST v4 writes it makes (merge,
 * rebase, delete the source branch).
 */
export const GRAPHQL_PATH = '/api/graphql';

export const mergeWidgetKeys = {
  all: ['merge-widget'] as const,
  widget: (fullPath: string, iid: number) => [...mergeWidgetKeys.all, fullPath, iid] as const,
};

/** A GraphQL answer with errors and no data (a field the server refused, a bad query). */
export class GraphqlError extends Error {
  override readonly name = 'GraphqlError';
}

export interface WidgetResult {
  project: MergeRequestWidgetProject;
  /** The server's Poll-Interval header in ms, or null without one. */
  pollIntervalMs: number | null;
}

function csrfToken(): string | undefined {
  return queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY)?.csrf_token;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}

/** One GraphQL request; resolves to `data` and the response headers. */
export async function graphqlRequest<T>(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  const token = csrfToken();
  if (token) headers[CSRF_HEADER] = token;
  const response = await fetch(GRAPHQL_PATH, { method: 'POST', headers, credentials: 'same-origin', body: JSON.stringify({ query, variables }), signal });
  const body = (await readJson(response)) as { data?: T | null; errors?: { message: string }[] } | string | undefined;
  if (!response.ok && (typeof body !== 'object' || !body?.data)) throw apiErrorFromBody(response.status, typeof body === 'object' && body?.errors?.[0] ? { message: body.errors[0].message } : body);
  if (typeof body !== 'object' || !body.data) throw new GraphqlError(typeof body === 'object' ? (body.errors?.map((error) => error.message).join('; ') ?? 'No data') : 'No data');
  return { data: body.data, headers: response.headers };
}

/** MERGE_REQUEST_WIDGET_QUERY for one merge request; null project or merge request reads as "not found". */
export const mergeWidgetQuery = (fullPath: string, iid: number) =>
  queryOptions({
    queryKey: mergeWidgetKeys.widget(fullPath, iid),
    queryFn: async ({ signal }): Promise<WidgetResult> => {
      const { data, headers } = await graphqlRequest<MergeRequestWidgetQueryResult>(MERGE_REQUEST_WIDGET_QUERY, { projectPath: fullPath, iid: String(iid) }, signal);
      if (!data.project?.mergeRequest) throw new GraphqlError('The merge request was not found.');
      return { project: data.project, pollIntervalMs: parsePollInterval(headers.get(POLL_INTERVAL_HEADER)) };
    },
    // Live updates (the subscription, or the fallback poll) refresh it; never stale on its own.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/**
 * The Poll-Interval of GitLab's widget endpoint (`/:full_path/-/merge_requests/:iid/widget.json`,
 * the first widget fetch's response headers carry a POLL-INTERVAL value), read
 * when the widget falls back to polling and the GraphQL answer carried none. The body (the
 * REST form of the same data) is not needed: the poll itself re-runs the GraphQL query.
 */
export const widgetPollIntervalQuery = (fullPath: string, iid: number) =>
  queryOptions({
    queryKey: [...mergeWidgetKeys.widget(fullPath, iid), 'poll-interval'] as const,
    queryFn: async ({ signal }): Promise<number | null> => {
      const path = `/${fullPath.split('/').map(encodeURIComponent).join('/')}/-/merge_requests/${iid}/widget.json`;
      const response = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
      if (!response.ok) throw apiErrorFromBody(response.status, await readJson(response));
      void response.body?.cancel();
      return parsePollInterval(response.headers.get(POLL_INTERVAL_HEADER));
    },
    staleTime: Infinity,
    retry: false,
  });

const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

/** PUT /projects/:id/merge_requests/:iid/merge (GitLab's "Merge a merge request"). */
export const mergeMutation = (projectId: number, iid: number) =>
  mutationOptions({
    mutationKey: ['merge-widget', 'merge', projectId, iid],
    mutationFn: (payload: MergeRequestPayload) => api.put<MergeRequest>(`${mrPath(projectId, iid)}/merge`, { body: payload }),
  });

/** POST /projects/:id/merge_requests/:iid/cancel_merge_when_pipeline_succeeds: cancels auto-merge (201). */
export const cancelAutoMergeMutation = (projectId: number, iid: number) =>
  mutationOptions({
    mutationKey: ['merge-widget', 'cancel-auto-merge', projectId, iid],
    mutationFn: () => api.post<MergeRequest>(`${mrPath(projectId, iid)}/cancel_merge_when_pipeline_succeeds`),
  });

/** PUT /projects/:id/merge_requests/:iid/rebase: answers 202 with `rebase_in_progress`. */
export const rebaseMutation = (projectId: number, iid: number) =>
  mutationOptions({
    mutationKey: ['merge-widget', 'rebase', projectId, iid],
    mutationFn: () => api.put<{ rebase_in_progress: boolean }>(`${mrPath(projectId, iid)}/rebase`),
  });

/** DELETE /projects/:id/repository/branches/:branch: the merged panel's "Delete source branch". */
export const deleteBranchMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['merge-widget', 'delete-branch', projectId],
    mutationFn: (branch: string) => api.delete(`/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`),
  });

/** POST /projects/:id/merge_requests/:iid/pipelines: 'Run pipeline' (a new merge request pipeline). */
export const runPipelineMutation = (projectId: number, iid: number) =>
  mutationOptions({
    mutationKey: ['merge-widget', 'run-pipeline', projectId, iid],
    mutationFn: () => api.post<{ id: number }>(`${mrPath(projectId, iid)}/pipelines`),
  });

const CALLOUTS_PATH = '/-/users/callouts';

/** GET /-/users/callouts: the feature names the signed-in user dismissed. */
export const calloutsQuery = () =>
  queryOptions({
    queryKey: ['user-callouts'] as const,
    queryFn: async ({ signal }): Promise<Set<string>> => {
      const response = await fetch(CALLOUTS_PATH, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
      if (!response.ok) throw apiErrorFromBody(response.status, await readJson(response));
      const body = (await readJson(response)) as { callouts: { feature_name: string }[] };
      return new Set(body.callouts.map((callout) => callout.feature_name));
    },
    staleTime: Infinity,
  });

/** GitLab's POST /-/users/callouts with `feature_name`: dismiss a callout for good. */
export const dismissCalloutMutation = () =>
  mutationOptions({
    mutationKey: ['user-callouts', 'dismiss'],
    mutationFn: async (featureName: string) => {
      const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
      const token = csrfToken();
      if (token) headers[CSRF_HEADER] = token;
      const response = await fetch(CALLOUTS_PATH, { method: 'POST', headers, credentials: 'same-origin', body: JSON.stringify({ feature_name: featureName }) });
      if (!response.ok) throw apiErrorFromBody(response.status, await readJson(response));
    },
  });
