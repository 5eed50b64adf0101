import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import type { Group, Label, Milestone, Project } from '../../lib/gitlab-types';

/**
 * Labels and milestones of a project (doc/api/labels.md, milestones.md): the project's own and
 * its groups'. Pickers and pages share these queries; writes invalidate `labelKeys.all`.
 */
const PER_PAGE = 100;

export const labelKeys = {
  all: ['labels'] as const,
  project: (projectId: number) => [...labelKeys.all, 'project', projectId] as const,
  milestones: (projectId: number, state: 'active' | 'closed' | 'all') => [...labelKeys.all, 'milestones', projectId, state] as const,
  owner: (owner: LabelsOwner, what: 'labels' | 'milestones', params: Record<string, string>) => [...labelKeys.all, 'owner', owner.kind, ownerId(owner), what, params] as const,
};

/** Whose labels and milestones a page shows: a project's (its own and its groups') or a group's. */
export type LabelsOwner = { kind: 'project'; project: Project } | { kind: 'group'; group: Group };

const ownerId = (owner: LabelsOwner) => (owner.kind === 'project' ? owner.project.id : owner.group.id);
/** `/projects/:id` or `/groups/:id`: GitLab's project and group label and milestone APIs have the same shape. */
export const ownerBase = (owner: LabelsOwner) => (owner.kind === 'project' ? `/projects/${owner.project.id}` : `/groups/${encodeId(owner.group.id)}`);

/** A page's labels: a project's with its groups', a group's own; `search` matches titles and descriptions. */
export const ownerLabelsQuery = (owner: LabelsOwner, search: string) =>
  queryOptions({
    queryKey: labelKeys.owner(owner, 'labels', { search }),
    queryFn: ({ signal }) =>
      api.get<Label[]>(`${ownerBase(owner)}/labels`, {
        signal,
        query: { per_page: PER_PAGE, with_counts: true, search: search || undefined, include_ancestor_groups: owner.kind === 'project' ? undefined : false },
      }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** A page's milestones in one state; a project's include its groups' (include_ancestors). */
export const ownerMilestonesQuery = (owner: LabelsOwner, state: 'active' | 'closed' | 'all', search: string) =>
  queryOptions({
    queryKey: labelKeys.owner(owner, 'milestones', { state, search }),
    queryFn: ({ signal }) =>
      api.get<Milestone[]>(`${ownerBase(owner)}/milestones`, {
        signal,
        query: { per_page: PER_PAGE, include_ancestors: owner.kind === 'project' ? true : undefined, state: state === 'all' ? undefined : state, search: search || undefined },
      }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** GitLab's label subscriptions: POST …/labels/:id/subscribe or /unsubscribe (304 when already so). */
export const labelSubscriptionMutation = (owner: LabelsOwner) =>
  mutationOptions({
    mutationFn: ({ label, subscribe }: { label: Label; subscribe: boolean }) => api.post(`${ownerBase(owner)}/labels/${label.id}/${subscribe ? 'subscribe' : 'unsubscribe'}`),
  });

/** A project label becomes its group's (PUT …/labels/:id/promote). */
export const promoteLabelMutation = (projectId: number) => mutationOptions({ mutationFn: (labelId: number) => api.put<Label>(`/projects/${projectId}/labels/${labelId}/promote`) });

/** A project milestone becomes its group's (POST …/milestones/:id/promote). */
export const promoteMilestoneMutation = (projectId: number) => mutationOptions({ mutationFn: (milestoneId: number) => api.post<Milestone>(`/projects/${projectId}/milestones/${milestoneId}/promote`) });

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

export const saveLabelMutation = (owner: LabelsOwner, labelId: number | null) =>
  mutationOptions({
    mutationFn: (input: LabelInput) =>
      labelId === null
        ? api.post<Label>(`${ownerBase(owner)}/labels`, { body: input })
        : api.put<Label>(`${ownerBase(owner)}/labels/${labelId}`, { body: { new_name: input.name, color: input.color, description: input.description } }),
  });

export const deleteLabelMutation = (owner: LabelsOwner) => mutationOptions({ mutationFn: (labelId: number) => api.delete(`${ownerBase(owner)}/labels/${labelId}`) });

export interface MilestoneInput {
  title?: string;
  description?: string;
  start_date?: string;
  due_date?: string;
  state_event?: 'close' | 'activate';
}

export const saveMilestoneMutation = (owner: LabelsOwner, milestoneId: number | null) =>
  mutationOptions({
    mutationFn: (input: MilestoneInput) =>
      milestoneId === null ? api.post<Milestone>(`${ownerBase(owner)}/milestones`, { body: input }) : api.put<Milestone>(`${ownerBase(owner)}/milestones/${milestoneId}`, { body: input }),
  });

export const deleteMilestoneMutation = (owner: LabelsOwner) => mutationOptions({ mutationFn: (milestoneId: number) => api.delete(`${ownerBase(owner)}/milestones/${milestoneId}`) });

/** Close or reopen (GitLab's state_event close / activate). */
export const milestoneStateMutation = (owner: LabelsOwner) =>
  mutationOptions({
    mutationFn: ({ milestone, event }: { milestone: Milestone; event: 'close' | 'activate' }) => api.put<Milestone>(`${ownerBase(owner)}/milestones/${milestone.id}`, { body: { state_event: event } }),
  });
