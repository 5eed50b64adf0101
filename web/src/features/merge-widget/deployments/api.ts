import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../../app/client';
import { deploymentsPollInterval, type EnvironmentDeployment } from './deployment-status';

export type EnvironmentTarget = 'head' | 'merge_commit';

const projectPath = (fullPath: string) => `/${fullPath.split('/').map(encodeURIComponent).join('/')}`;

export const deploymentKeys = {
  all: (fullPath: string, iid: number) => ['merge-widget', fullPath, iid, 'deployments'] as const,
  list: (fullPath: string, iid: number, target: EnvironmentTarget) => [...deploymentKeys.all(fullPath, iid), target] as const,
};

/**
 * GitLab's `ci_environments_status`: the environments the merge request's head (before the
 * merge) or its merge commit (after) reached, read at once and then at growing intervals while
 * `poll` holds.
 */
export const environmentsStatusQuery = (fullPath: string, iid: number, target: EnvironmentTarget, poll: boolean) =>
  queryOptions({
    queryKey: deploymentKeys.list(fullPath, iid, target),
    queryFn: ({ signal }) =>
      api.get<EnvironmentDeployment[]>(`${projectPath(fullPath)}/-/merge_requests/${iid}/ci_environments_status`, {
        signal,
        query: target === 'merge_commit' ? { environment_target: 'merge_commit' } : {},
      }),
    refetchInterval: (query) => (poll ? deploymentsPollInterval(query.state.dataUpdateCount) : false),
  });

/** An inline action path of the list (stop_url, play_path, retry_path): a POST; the stop answers where to go. */
export const deploymentActionMutation = () =>
  mutationOptions({
    mutationFn: (path: string) => api.post<{ redirect_url?: string }>(path),
  });
