import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { Label, Milestone } from '../../lib/gitlab-types';

/**
 * Labels and milestones of a project (doc/api/labels.md, milestones.md): the project's own and
 * its groups'. Pickers and pages share these queries; writes invalidate `labelKeys.all`.
 */
const PER_PAGE = 100;

export const labelKeys = {
  all: ['labels'] as const,
  project: (projectId: number) => [...labelKeys.all, 'project', projectId] as const,
  milestones: (projectId: number, state: 'active' | 'closed' | 'all') => [...labelKeys.all, 'milestones', projectId, state] as const,
};

export const projectLabelsQuery = (projectId: number) =>
  queryOptions({
    queryKey: labelKeys.project(projectId),
    queryFn: ({ signal }) => api.get<Label[]>(`/projects/${projectId}/labels`, { signal, query: { per_page: PER_PAGE, with_counts: true } }),
    staleTime: 30_000,
  });

export const projectMilestonesQuery = (projectId: number, state: 'active' | 'closed' | 'all') =>
  queryOptions({
    queryKey: labelKeys.milestones(projectId, state),
    queryFn: ({ signal }) =>
      api.get<Milestone[]>(`/projects/${projectId}/milestones`, { signal, query: { per_page: PER_PAGE, include_ancestors: true, state: state === 'all' ? undefined : state } }),
    staleTime: 30_000,
  });

export interface LabelInput {
  name: string;
  color: string;
  description?: string;
}

export const saveLabelMutation = (projectId: number, labelId: number | null) =>
  mutationOptions({
    mutationFn: (input: LabelInput) =>
      labelId === null
        ? api.post<Label>(`/projects/${projectId}/labels`, { body: input })
        : api.put<Label>(`/projects/${projectId}/labels/${labelId}`, { body: { new_name: input.name, color: input.color, description: input.description } }),
  });

export const deleteLabelMutation = (projectId: number) => mutationOptions({ mutationFn: (labelId: number) => api.delete(`/projects/${projectId}/labels/${labelId}`) });

export interface MilestoneInput {
  title?: string;
  description?: string;
  start_date?: string;
  due_date?: string;
  state_event?: 'close' | 'activate';
}

export const saveMilestoneMutation = (projectId: number, milestoneId: number | null) =>
  mutationOptions({
    mutationFn: (input: MilestoneInput) =>
      milestoneId === null ? api.post<Milestone>(`/projects/${projectId}/milestones`, { body: input }) : api.put<Milestone>(`/projects/${projectId}/milestones/${milestoneId}`, { body: input }),
  });

export const deleteMilestoneMutation = (projectId: number) => mutationOptions({ mutationFn: (milestoneId: number) => api.delete(`/projects/${projectId}/milestones/${milestoneId}`) });

/** Close or reopen (GitLab's state_event close / activate). */
export const milestoneStateMutation = (projectId: number) =>
  mutationOptions({
    mutationFn: ({ milestone, event }: { milestone: Milestone; event: 'close' | 'activate' }) => api.put<Milestone>(`/projects/${projectId}/milestones/${milestone.id}`, { body: { state_event: event } }),
  });
