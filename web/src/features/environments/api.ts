import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { UserBasic } from '../../lib/gitlab-types';

/** A job as GitLab's deployment entity carries it (`deployable`). */
export interface Deployable {
  id: number;
  name: string;
  status: string;
  web_url: string;
  commit: { id: string; short_id: string; title: string } | null;
  pipeline: { id: number; web_url: string };
}

/** GitLab's Deployment entity. */
export interface Deployment {
  id: number;
  iid: number;
  ref: string;
  sha: string;
  status: 'created' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'blocked';
  created_at: string;
  updated_at: string;
  user: UserBasic | null;
  deployable: Deployable | null;
}

/** GitLab's Environment entity (the list and the single environment). */
export interface Environment {
  id: number;
  name: string;
  slug: string;
  external_url: string | null;
  state: 'available' | 'stopping' | 'stopped';
  tier: string;
  created_at: string;
  updated_at: string;
  auto_stop_at: string | null;
  last_deployment: Deployment | null;
}

export type EnvironmentScope = 'available' | 'stopped';

export const ENVIRONMENTS_PER_PAGE = 20;
export const DEPLOYMENTS_PER_PAGE = 20;
/** Deployments move while their jobs run: open environment pages read them again this often. */
const POLL_MS = 5_000;

export const environmentKeys = {
  all: (projectId: number) => ['projects', projectId, 'environments'] as const,
  list: (projectId: number, scope: EnvironmentScope, page: number) => [...environmentKeys.all(projectId), 'list', scope, page] as const,
  one: (projectId: number, id: number) => [...environmentKeys.all(projectId), id] as const,
  deployments: (projectId: number, name: string, page: number) => [...environmentKeys.all(projectId), 'deployments', name, page] as const,
};

/** One scope's page of environments; a stopping environment counts as available, as in GitLab's tabs. */
export const environmentListQuery = (projectId: number, scope: EnvironmentScope, page: number) =>
  queryOptions({
    queryKey: environmentKeys.list(projectId, scope, page),
    queryFn: ({ signal }) =>
      api.getPage<Environment>(`/projects/${projectId}/environments`, {
        signal,
        query: { states: scope, page, per_page: ENVIRONMENTS_PER_PAGE },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS,
  });

export const environmentQuery = (projectId: number, id: number) =>
  queryOptions({
    queryKey: environmentKeys.one(projectId, id),
    queryFn: ({ signal }) => api.get<Environment>(`/projects/${projectId}/environments/${id}`, { signal }),
    refetchInterval: POLL_MS,
  });

/** An environment's deployments, newest first. */
export const deploymentsQuery = (projectId: number, environment: string, page: number) =>
  queryOptions({
    queryKey: environmentKeys.deployments(projectId, environment, page),
    queryFn: ({ signal }) =>
      api.getPage<Deployment>(`/projects/${projectId}/deployments`, {
        signal,
        query: { environment, order_by: 'id', sort: 'desc', page, per_page: DEPLOYMENTS_PER_PAGE },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS,
  });

export const stopEnvironmentMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...environmentKeys.all(projectId), 'stop'],
    mutationFn: (id: number) => api.post<Environment>(`/projects/${projectId}/environments/${id}/stop`),
  });

export const deleteEnvironmentMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...environmentKeys.all(projectId), 'delete'],
    mutationFn: (id: number) => api.delete(`/projects/${projectId}/environments/${id}`),
  });

/** Re-deploying runs the deployment's job again (GitLab's "Re-deploy to environment"). */
export const redeployMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...environmentKeys.all(projectId), 'redeploy'],
    mutationFn: (jobId: number) => api.post(`/projects/${projectId}/jobs/${jobId}/retry`),
  });

export const createEnvironmentMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...environmentKeys.all(projectId), 'create'],
    mutationFn: (input: { name: string; external_url?: string }) => api.post<Environment>(`/projects/${projectId}/environments`, { body: input }),
  });
