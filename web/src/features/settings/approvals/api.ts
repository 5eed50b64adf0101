import { mutationOptions, queryOptions } from '@tanstack/react-query';
import type { ApprovalSettingKey, ApprovalSettingsAnswer } from '@tributary/contracts/approval-settings';
import { api } from '../../../app/client';
import type { Group, UserBasic } from '../../../lib/gitlab-types';
import type { ProtectedBranch } from '../api';

/**
 * The approvals settings pages' calls (GitLab's approval rules and MergeRequestApprovalSetting
 * APIs): a project's rules, and a project's or group's merge request approval settings.
 */
export type SettingsOwner = { kind: 'project'; id: number } | { kind: 'group'; id: number };

export interface ProjectApprovalRule {
  id: number;
  name: string;
  rule_type: 'regular' | 'any_approver' | 'report_approver' | 'code_owner';
  report_type: string | null;
  approvals_required: number;
  users: UserBasic[];
  groups: Pick<Group, 'id' | 'name' | 'full_name' | 'full_path' | 'avatar_url'>[];
  contains_hidden_groups: boolean;
  protected_branches: Pick<ProtectedBranch, 'id' | 'name'>[];
  applies_to_all_protected_branches: boolean;
}

export interface RuleInput {
  name: string;
  approvals_required: number;
  user_ids: number[];
  group_ids: number[];
  protected_branch_ids: number[];
  applies_to_all_protected_branches: boolean;
}

export const approvalKeys = {
  rules: (projectId: number) => ['projects', projectId, 'approval-rules'] as const,
  settings: (owner: SettingsOwner) => [owner.kind === 'project' ? 'projects' : 'groups', owner.id, 'merge-request-approval-setting'] as const,
  group: (id: number) => ['groups', id, 'approval-lock-name'] as const,
};

export const approvalRulesQuery = (projectId: number) =>
  queryOptions({
    queryKey: approvalKeys.rules(projectId),
    queryFn: ({ signal }) => api.get<ProjectApprovalRule[]>(`/projects/${projectId}/approval_rules`, { signal, query: { per_page: 100 } }),
  });

export const saveRuleMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'approval-rules', 'save'],
    mutationFn: ({ id, input }: { id: number | null; input: RuleInput }) =>
      id === null
        ? api.post<ProjectApprovalRule>(`/projects/${projectId}/approval_rules`, { body: input })
        : api.put<ProjectApprovalRule>(`/projects/${projectId}/approval_rules/${id}`, { body: input }),
  });

export const deleteRuleMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'approval-rules', 'delete'],
    mutationFn: (id: number) => api.delete(`/projects/${projectId}/approval_rules/${id}`),
  });

const settingsPath = (owner: SettingsOwner) => `/${owner.kind === 'project' ? 'projects' : 'groups'}/${owner.id}/merge_request_approval_setting`;

export const approvalSettingsQuery = (owner: SettingsOwner) =>
  queryOptions({
    queryKey: approvalKeys.settings(owner),
    queryFn: ({ signal }) => api.get<ApprovalSettingsAnswer>(settingsPath(owner), { signal }),
  });

export const updateApprovalSettingsMutation = (owner: SettingsOwner) =>
  mutationOptions({
    mutationKey: [...approvalKeys.settings(owner), 'update'],
    mutationFn: (values: Partial<Record<ApprovalSettingKey, boolean>>) => api.put<ApprovalSettingsAnswer>(settingsPath(owner), { body: values }),
  });

/** The name of the group that locks a setting ("configured in {groupName}"). */
export const lockingGroupQuery = (id: number) =>
  queryOptions({
    queryKey: approvalKeys.group(id),
    queryFn: ({ signal }) => api.get<Group>(`/groups/${id}`, { signal, query: { with_projects: false } }),
    staleTime: 60_000,
  });

/** Groups to choose approvers from (GET /groups?search=). */
export const groupsSearchQuery = (search: string) =>
  queryOptions({
    queryKey: ['groups', 'approver-search', search],
    queryFn: ({ signal }) => api.get<Group[]>('/groups', { signal, query: { search, per_page: 20, order_by: 'name' } }),
  });
