import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { apiErrorFromBody } from '../../lib/api-error';
import { API_PREFIX } from '../../lib/api-client';
import type { UserBasic } from '../../lib/gitlab-types';
import { FALLBACK_POLL_MS } from './live';

/** GitLab's `detailed_status` of a pipeline or job: how its status is shown, and for a job the action a user may take. */
export interface DetailedStatus {
  icon: string;
  text: string;
  label: string;
  group: string;
  tooltip: string;
  has_details: boolean;
  details_path: string | null;
  /** `confirmation_message`: a manual job's `manual_confirmation`, asked before it runs */
  action?: { icon: string; title: string; path: string; method: 'post'; button_title: string; confirmation_message?: string | null };
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
  /** the archive, when the job uploaded one */
  artifacts_file?: { filename: string; size: number };
  artifacts?: { file_type: string; size: number; filename: string; file_format: string }[];
  /** when the archive expires; null: kept */
  artifacts_expire_at?: string | null;
}

/** Statuses in which nothing moves any more: polling stops there. */
const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled']);
export const isFinished = (status: string | undefined) => status !== undefined && FINISHED.has(status);
/**
 * How often an unfinished pipeline or job is read again while the page's live channel (live.ts)
 * is down; with it live, pages read only when told something moved. React Query stops interval
 * reads while the tab is hidden.
 */
export const POLL_MS = FALLBACK_POLL_MS;
/** The jobs API's largest page: a pipeline's jobs are read in pages of this many. */
const JOBS_PAGE = 100;

export const PIPELINES_PER_PAGE = 20;

/** GitLab's TriggeredPipelineEntity: a pipeline upstream or downstream of the one shown. */
export interface LinkedPipeline {
  id: number;
  iid: number;
  active: boolean;
  source: string;
  path: string;
  details: { status: DetailedStatus };
  project: { id: number; name: string; full_path: string; full_name: string };
  source_job: { name: string } | null;
}

/** The pipeline page's JSON (`/<project>/-/pipelines/:id.json`): the pipelines that triggered it and that it triggered. */
export interface PipelineRelations {
  id: number;
  triggered_by: LinkedPipeline | null;
  triggered: LinkedPipeline[];
}

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
  artifacts: (projectId: number, id: number, path: string) => ['projects', projectId, 'jobs', id, 'artifacts', path] as const,
};

/** A row of the pipelines page: the pipeline with its latest jobs and trigger jobs (the mini graph's). */
export interface PipelineWithJobs extends Pipeline {
  jobs: Job[];
}

/**
 * The pipelines page (`/<project>/-/pipelines.json`, a web route): one page of pipelines, each with
 * its jobs, in one request, where each row read its pipeline and its jobs itself.
 */
export const pipelineListQuery = (projectId: number, fullPath: string, params: PipelineListParams, live = false) =>
  queryOptions({
    queryKey: pipelineKeys.list(projectId, params),
    queryFn: ({ signal }) =>
      api.getPage<PipelineWithJobs>(`/-/project-path/${encodeURIComponent(fullPath)}/-/pipelines.json`, {
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
    // New pipelines appear (a push) and listed ones move on: without the live channel the list is polled.
    refetchInterval: live ? false : POLL_MS,
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

export const pipelineQuery = (projectId: number, id: number, live = false) =>
  queryOptions({
    queryKey: pipelineKeys.one(projectId, id),
    queryFn: ({ signal }) => api.get<Pipeline>(`/projects/${projectId}/pipelines/${id}`, { signal }),
    refetchInterval: (query) => (live || isFinished(query.state.data?.status) ? false : POLL_MS),
  });

/** The upstream and downstream pipelines, read again while the pipeline runs (a downstream pipeline appears once its trigger job runs). */
export const pipelineRelationsQuery = (fullPath: string, id: number, poll: boolean) =>
  queryOptions({
    queryKey: ['pipelines', fullPath, id, 'relations'] as const,
    queryFn: async ({ signal }): Promise<PipelineRelations> => {
      const path = `/${fullPath.split('/').map(encodeURIComponent).join('/')}/-/pipelines/${id}.json`;
      const response = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw apiErrorFromBody(response.status, body);
      return body as PipelineRelations;
    },
    refetchInterval: poll ? POLL_MS : false,
  });

/**
 * Every page of a pipeline's jobs or bridges (a pipeline may have up to 2000 jobs): the first
 * page tells how many there are (X-Total-Pages), the rest are read at once.
 */
async function allPages(path: string, signal: AbortSignal): Promise<Job[]> {
  const first = await api.getPage<Job>(path, { signal, query: { per_page: JOBS_PAGE, page: 1 } });
  const pages = first.pageInfo.totalPages ?? 1;
  const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => api.get<Job[]>(path, { signal, query: { per_page: JOBS_PAGE, page: i + 2 } })));
  return [first.items, ...rest].flat();
}

/** Every job of a pipeline (latest attempts), trigger jobs included; polled while the pipeline runs and the live channel is down. */
export const pipelineJobsQuery = (projectId: number, id: number, poll: boolean) =>
  queryOptions({
    queryKey: pipelineKeys.jobs(projectId, id),
    queryFn: async ({ signal }) => {
      const [jobs, bridges] = await Promise.all([allPages(`/projects/${projectId}/pipelines/${id}/jobs`, signal), allPages(`/projects/${projectId}/pipelines/${id}/bridges`, signal)]);
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

export const jobQuery = (projectId: number, id: number, live = false) =>
  queryOptions({
    queryKey: pipelineKeys.job(projectId, id),
    queryFn: ({ signal }) => api.get<Job>(`/projects/${projectId}/jobs/${id}`, { signal }),
    refetchInterval: (query) => (live || isFinished(query.state.data?.status) ? false : POLL_MS),
  });

export type JobAction = 'retry' | 'cancel' | 'play' | 'unschedule';

/**
 * A job action: retry, cancel and play through the jobs API; unschedule (which the API does not
 * have, as GitLab's does not) through the web path its `detailed_status.action` names.
 */
export const jobActionMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'jobs', 'action'],
    mutationFn: async ({ jobId, action, path }: { jobId: number; action: JobAction; path?: string }): Promise<unknown> =>
      action === 'unschedule' && path ? api.post<unknown>(path) : api.post<Job>(`/projects/${projectId}/jobs/${jobId}/${action}`),
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

/** GitLab's TestCaseEntity (GET …/pipelines/:id/test_report). */
export interface TestCase {
  status: 'success' | 'failed' | 'skipped' | 'error';
  name: string;
  classname: string;
  file: string | null;
  execution_time: number;
  system_output: string | null;
  stack_trace: string | null;
  attachment_url?: string;
}

export interface TestCounts {
  total_time: number;
  total_count: number;
  success_count: number;
  failed_count: number;
  skipped_count: number;
  error_count: number;
}

export interface TestSuite extends TestCounts {
  name: string;
  suite_error: string | null;
  test_cases: TestCase[];
}

export interface TestReport extends TestCounts {
  test_suites: TestSuite[];
}

export interface TestReportSummary {
  total: { time: number; count: number; success: number; failed: number; skipped: number; error: number; suite_error: string | null };
  test_suites: (TestCounts & { name: string; build_ids: number[]; suite_error: string | null })[];
}

/** The pipeline's test summary (the Tests tab's counter); read again while the pipeline runs. */
export const testReportSummaryQuery = (projectId: number, id: number, poll: boolean) =>
  queryOptions({
    queryKey: [...pipelineKeys.one(projectId, id), 'test_report_summary'] as const,
    queryFn: ({ signal }) => api.get<TestReportSummary>(`/projects/${projectId}/pipelines/${id}/test_report_summary`, { signal }),
    refetchInterval: poll ? POLL_MS * 3 : false,
  });

/** Every suite with its cases (the Tests tab). */
export const testReportQuery = (projectId: number, id: number) =>
  queryOptions({
    queryKey: [...pipelineKeys.one(projectId, id), 'test_report'] as const,
    queryFn: ({ signal }) => api.get<TestReport>(`/projects/${projectId}/pipelines/${id}/test_report`, { signal }),
  });

/** GitLab's CommitStatus entity (GET …/repository/commits/:sha/statuses). */
export interface CommitStatus {
  id: number;
  sha: string;
  ref: string;
  status: string;
  name: string;
  target_url: string | null;
  description: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  allow_failure: boolean;
  coverage: number | null;
  pipeline_id: number;
  author: UserBasic | null;
}

/**
 * The statuses outside CI systems posted on the pipeline (its `external` stage), shown in the graph
 * beside its jobs; read again while the pipeline runs.
 */
export const externalStatusesQuery = (projectId: number, sha: string, pipelineId: number, poll: boolean) =>
  queryOptions({
    queryKey: [...pipelineKeys.one(projectId, pipelineId), 'external-statuses', sha] as const,
    queryFn: ({ signal }) =>
      api.get<CommitStatus[]>(`/projects/${projectId}/repository/commits/${sha}/statuses`, { signal, query: { pipeline_id: pipelineId, stage: 'external', per_page: 100 } }),
    refetchInterval: poll ? POLL_MS : false,
  });

/** One directory of a job's artifacts archive (the artifacts browser's `browse.json`). */
export interface ArtifactsListing {
  path: string;
  entries: { name: string; path: string; type: 'directory' | 'file'; size: number | null }[];
  archive: { filename: string; size: number; expire_at: string | null };
}

/** `/<project>/-/jobs/:id/artifacts/browse.json?path=`: a web route, called in its `/-/project-path/<full path>` form (not the API). */
export const artifactsListingQuery = (fullPath: string, projectId: number, jobId: number, path: string) =>
  queryOptions({
    queryKey: pipelineKeys.artifacts(projectId, jobId, path),
    queryFn: ({ signal }) =>
      api.get<ArtifactsListing>(`/-/project-path/${encodeURIComponent(fullPath)}/-/jobs/${jobId}/artifacts/browse.json`, { signal, query: { path } }),
  });

export const keepArtifactsMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'jobs', 'keep-artifacts'],
    mutationFn: (jobId: number) => api.post<Job>(`/projects/${projectId}/jobs/${jobId}/artifacts/keep`),
  });

/** The API URL that downloads the whole archive, or one file of it. */
export const artifactsDownloadUrl = (projectId: number, jobId: number, path?: string) =>
  `${API_PREFIX}/projects/${projectId}/jobs/${jobId}/artifacts${path ? `/${path.split('/').map(encodeURIComponent).join('/')}` : ''}`;

/** A job of GitLab's DAG JSON: `needs` (names) only on a job scheduled by its needs. */
export interface DagJob {
  name: string;
  needs?: string[];
}

export interface DagPipeline {
  stages: { name: string; groups: { name: string; size: number; jobs: DagJob[] }[] }[];
}

/**
 * The jobs' needs (GitLab's DAG JSON, `/<project>/-/pipelines/:id/dag.json`, a web route in its
 * `/-/project-path/<full path>` form). Read once: a pipeline's job names and their needs never
 * change (a retried job keeps both).
 */
export const pipelineDagQuery = (fullPath: string, projectId: number, id: number) =>
  queryOptions({
    queryKey: [...pipelineKeys.one(projectId, id), 'dag'] as const,
    queryFn: ({ signal }) => api.get<DagPipeline>(`/-/project-path/${encodeURIComponent(fullPath)}/-/pipelines/${id}/dag.json`, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
