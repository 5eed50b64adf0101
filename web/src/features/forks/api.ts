import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { Project, Visibility } from '../../lib/gitlab-types';

/** POST /projects/:id/fork (doc/api/project_forks.md). */
export interface ForkInput {
  namespace_id: number;
  name: string;
  path: string;
  visibility: Visibility;
  description?: string;
}

export const forkProjectMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'fork'],
    mutationFn: (input: ForkInput) => api.post<Project>(`/projects/${projectId}/fork`, { body: input }),
  });
