import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../../app/client';

/** GitLab's Entities::Ci::Runner with the RunnerDetails fields the settings page shows. */
export interface Runner {
  id: number;
  description: string | null;
  paused: boolean;
  is_shared: boolean;
  runner_type: 'instance_type' | 'group_type' | 'project_type';
  online: boolean;
  status: 'online' | 'offline' | 'never_contacted' | 'stale' | 'paused';
  created_at: string;
}

/** What POST /user/runners answers: the authentication token, shown once. */
export interface CreatedRunner {
  id: number;
  token: string;
  token_expires_at: string | null;
}

export interface NewRunnerInput {
  runner_type: 'project_type';
  project_id: number;
  description: string;
  tag_list: string[];
  run_untagged: boolean;
  paused: boolean;
  access_level: 'not_protected' | 'ref_protected';
  maximum_timeout?: number;
}

export const runnerKeys = {
  project: (projectId: number) => ['projects', projectId, 'runners'] as const,
};

/** The runners a project can use: its own, its groups', the instance's (GET /projects/:id/runners). */
export const projectRunnersQuery = (projectId: number) =>
  queryOptions({
    queryKey: runnerKeys.project(projectId),
    queryFn: ({ signal }) => api.get<Runner[]>(`/projects/${projectId}/runners`, { signal, query: { per_page: 100 } }),
  });

export const createRunnerMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...runnerKeys.project(projectId), 'create'],
    mutationFn: (body: NewRunnerInput) => api.post<CreatedRunner>('/user/runners', { body }),
  });

export const pauseRunnerMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...runnerKeys.project(projectId), 'pause'],
    mutationFn: ({ id, paused }: { id: number; paused: boolean }) => api.put<Runner>(`/runners/${id}`, { body: { paused } }),
  });

export const removeRunnerMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...runnerKeys.project(projectId), 'delete'],
    mutationFn: (id: number) => api.delete(`/runners/${id}`),
  });
