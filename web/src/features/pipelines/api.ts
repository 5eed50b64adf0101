import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { ApiError } from '../../lib/api-error';
import type { UserBasic } from '../../lib/gitlab-types';

/** GitLab's `detailed_status` of a pipeline or job: how its status is shown, and for a job the action a user may take. */
export interface DetailedStatus {
  icon: string;
  text: string;
  label: string;
  group: string;
  tooltip: string;
  has_details: boolean;
  details_path: string | null;
  action?: { icon: string; title: string; path: string; method: 'post'; button_title: string };
}

/** GitLab's PipelineBasic (the list's rows). */
export interface PipelineBasic {
  id: number;
  iid: number;
  project_id: number;
  sha: string;
  ref: string;
  status: string;
  source: string;
  created_at: string;
  updated_at: string;
  web_url: string;
  name: string | null;
}

export interface Pipeline extends PipelineBasic {
  before_sha: string | null;
  tag: boolean;
  yaml_errors: string | null;
  user: UserBasic | null;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  queued_duration: number | null;
  coverage: string | null;
  detailed_status: DetailedStatus;
}

export interface Job {
  id: number;
  status: string;
  stage: string;
  name: string;
  ref: string;
  allow_failure: boolean;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  queued_duration: number | null;
  user: UserBasic | null;
  pipeline: PipelineBasic;
  failure_reason?: string;
  web_url: string;
  runner?: { id: number; description: string | null } | null;
  tag_list?: string[];
  /** Absent on trigger jobs (bridges). */
  detailed_status?: DetailedStatus;
  downstream_pipeline?: PipelineBasic | null;
}

/** Statuses in which nothing moves any more: polling stops there. */
const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled']);
export const isFinished = (status: string | undefined) => status !== undefined && FINISHED.has(status);
/** How often an unfinished pipeline or job is read again (React Query stops while the tab is hidden). */
export const POLL_MS = 3_000;

export const PIPELINES_PER_PAGE = 20;

export interface PipelineListParams {
  status: string;
  ref: string;
  source: string;
  username: string;
  page: number;
}

export const pipelineKeys = {
  all: (projectId: number) => ['projects', projectId, 'pipelines'] as const,
  list: (projectId: number, params: PipelineListParams) => [...pipelineKeys.all(projectId), 'list', params] as const,
  one: (projectId: number, id: number) => [...pipelineKeys.all(projectId), id] as const,
  jobs: (projectId: number, id: number) => [...pipelineKeys.all(projectId), id, 'jobs'] as const,
  bridges: (projectId: number, id: number) => [...pipelineKeys.all(projectId), id, 'bridges'] as const,
  projectJobs: (projectId: number, scope: string, page: number) => ['projects', projectId, 'jobs', 'list', scope, page] as const,
  job: (projectId: number, id: number) => ['projects', projectId, 'jobs', id] as const,
  trace: (projectId: number, id: number) => ['projects', projectId, 'jobs', id, 'trace'] as const,
};

export const pipelineListQuery = (projectId: number, params: PipelineListParams) =>
  queryOptions({
    queryKey: pipelineKeys.list(projectId, params),
    queryFn: ({ signal }) =>
      api.getPage<PipelineBasic>(`/projects/${projectId}/pipelines`, {
        signal,
        query: {
          status: params.status || undefined,
          ref: params.ref || undefined,
          source: params.source || undefined,
          username: params.username || undefined,
          page: params.page,
          per_page: PIPELINES_PER_PAGE,
        },
      }),
    placeholderData: keepPreviousData,
    // New pipelines appear (a push) and listed ones move on: the list is read again while it is shown.
    refetchInterval: POLL_MS * 3,
  });

/** A merge request's pipelines (GET …/merge_requests/:iid/pipelines): merge request pipelines first. */
export const mergeRequestPipelinesQuery = (projectId: number, iid: number, page: number) =>
  queryOptions({
    queryKey: ['projects', projectId, 'merge_requests', iid, 'pipelines', page] as const,
    queryFn: ({ signal }) => api.getPage<PipelineBasic>(`/projects/${projectId}/merge_requests/${iid}/pipelines`, { signal, query: { page, per_page: PIPELINES_PER_PAGE } }),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS * 3,
  });

/** 'Run pipeline' on a merge request (POST …/merge_requests/:iid/pipelines). */
export const runMergeRequestPipelineMutation = (projectId: number, iid: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'merge_requests', iid, 'pipelines', 'create'],
    mutationFn: () => api.post<Pipeline>(`/projects/${projectId}/merge_requests/${iid}/pipelines`),
  });

export const pipelineQuery = (projectId: number, id: number) =>
  queryOptions({
    queryKey: pipelineKeys.one(projectId, id),
    queryFn: ({ signal }) => api.get<Pipeline>(`/projects/${projectId}/pipelines/${id}`, { signal }),
    refetchInterval: (query) => (isFinished(query.state.data?.status) ? false : POLL_MS),
  });

/** Every job of a pipeline (latest attempts), trigger jobs included; read again while the pipeline runs. */
export const pipelineJobsQuery = (projectId: number, id: number, poll: boolean) =>
  queryOptions({
    queryKey: pipelineKeys.jobs(projectId, id),
    queryFn: async ({ signal }) => {
      const [jobs, bridges] = await Promise.all([
        api.get<Job[]>(`/projects/${projectId}/pipelines/${id}/jobs`, { signal, query: { per_page: 100 } }),
        api.get<Job[]>(`/projects/${projectId}/pipelines/${id}/bridges`, { signal, query: { per_page: 100 } }),
      ]);
      return [...jobs, ...bridges].sort((a, b) => a.id - b.id);
    },
    refetchInterval: poll ? POLL_MS : false,
  });

export const JOBS_PER_PAGE = 30;

export const projectJobsQuery = (projectId: number, scope: string, page: number) =>
  queryOptions({
    queryKey: pipelineKeys.projectJobs(projectId, scope, page),
    queryFn: ({ signal }) =>
      api.getPage<Job>(`/projects/${projectId}/jobs`, { signal, query: { scope: scope ? [scope] : undefined, page, per_page: JOBS_PER_PAGE } }),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS * 3,
  });

export const jobQuery = (projectId: number, id: number) =>
  queryOptions({
    queryKey: pipelineKeys.job(projectId, id),
    queryFn: ({ signal }) => api.get<Job>(`/projects/${projectId}/jobs/${id}`, { signal }),
    refetchInterval: (query) => (isFinished(query.state.data?.status) ? false : POLL_MS),
  });

/** The job's log; null where the server has no log endpoint or no log for it (a 404). */
export const jobTraceQuery = (projectId: number, id: number, poll: boolean) =>
  queryOptions({
    queryKey: pipelineKeys.trace(projectId, id),
    queryFn: async ({ signal }) => {
      try {
        return await api.getText(`/projects/${projectId}/jobs/${id}/trace`, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: poll ? POLL_MS : false,
  });

export type JobAction = 'retry' | 'cancel' | 'play';

export const jobActionMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'jobs', 'action'],
    mutationFn: ({ jobId, action }: { jobId: number; action: JobAction }) => api.post<Job>(`/projects/${projectId}/jobs/${jobId}/${action}`),
  });

export const pipelineActionMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'pipelines', 'action'],
    mutationFn: async ({ pipelineId, action }: { pipelineId: number; action: 'retry' | 'cancel' | 'delete' }): Promise<void> => {
      if (action === 'delete') await api.delete(`/projects/${projectId}/pipelines/${pipelineId}`);
      else await api.post<Pipeline>(`/projects/${projectId}/pipelines/${pipelineId}/${action}`);
    },
  });

export interface NewPipelineInput {
  ref: string;
  variables: { key: string; value: string; variable_type: 'env_var' | 'file' }[];
}

export const createPipelineMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'pipelines', 'create'],
    mutationFn: (input: NewPipelineInput) => api.post<Pipeline>(`/projects/${projectId}/pipeline`, { body: input }),
  });
