import { queryOptions } from '@tanstack/react-query';
import { WIDGET_POLLING } from '@tributary/contracts/merge-widget';
import { api, queryClient } from '../../../app/client';

const projectPath = (fullPath: string) => `/${fullPath.split('/').map(encodeURIComponent).join('/')}`;

/** One exposed artifact (`artifacts:expose_as`), as GitLab's exposed_artifacts endpoint answers it. */
export interface ExposedArtifact {
  text: string;
  url: string;
  job_name: string;
  job_path: string;
}

/** What the widget holds: the list (empty for GitLab's 204) and the ETag it came with. */
export interface ExposedArtifactsState {
  artifacts: ExposedArtifact[];
  etag: string | null;
}

/** While the head pipeline runs, its jobs upload artifacts: the list is asked for again this often. */
export const EXPOSED_ARTIFACTS_POLL_MS = WIDGET_POLLING.defaultIntervalMs;

export const exposedArtifactsKey = (fullPath: string, iid: number, pipelineId: string) => ['merge-widget', fullPath, iid, 'exposed-artifacts', pipelineId] as const;

/**
 * The merge request's exposed artifacts for its head pipeline, polled with the ETag of what is
 * held (a 304 keeps it) while the pipeline is active and the tab is visible: TanStack Query
 * stops interval refetches in a hidden tab (refetchIntervalInBackground off) and asks again when
 * it comes back. The pipeline's status is in the key, so its end brings one last read.
 */
export const exposedArtifactsQuery = (fullPath: string, iid: number, pipeline: { id: string; status: string; active: boolean }) => {
  const queryKey = [...exposedArtifactsKey(fullPath, iid, pipeline.id), pipeline.status] as const;
  return queryOptions({
    queryKey,
    queryFn: async ({ signal }): Promise<ExposedArtifactsState> => {
      // the tag of what is shown, from this status's entry or the pipeline's previous one
      const held =
        queryClient.getQueryData<ExposedArtifactsState>(queryKey) ??
        queryClient.getQueriesData<ExposedArtifactsState>({ queryKey: exposedArtifactsKey(fullPath, iid, pipeline.id) }).find(([, data]) => data)?.[1];
      const answer = await api.getIfNoneMatch<ExposedArtifact[]>(`${projectPath(fullPath)}/-/merge_requests/${iid}/exposed_artifacts.json`, held?.etag ?? null, { signal });
      if (answer.unchanged) return held!;
      return { artifacts: answer.data ?? [], etag: answer.etag };
    },
    refetchInterval: pipeline.active ? EXPOSED_ARTIFACTS_POLL_MS : false,
    refetchIntervalInBackground: false,
    // the next poll is the retry
    retry: false,
    refetchOnWindowFocus: pipeline.active,
  });
};
