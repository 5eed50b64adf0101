import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api, queryClient, SESSION_QUERY_KEY } from '../../app/client';
import { API_PREFIX, CSRF_HEADER, encodeId } from '../../lib/api-client';
import { ApiError, apiErrorFromBody } from '../../lib/api-error';
import type { Group, Project, Session } from '../../lib/gitlab-types';

/**
 * The settings pages' calls, all GitLab's REST API v4: PUT /projects/:id, PUT /projects/:id/transfer,
 * POST /projects/:id/archive|unarchive, DELETE /projects/:id, GET|POST|DELETE
 * /projects/:id/protected_branches and /projects/:id/protected_tags, GET|POST|PUT /projects/:id/push_rule,
 * PUT|DELETE /groups/:id.
 */
export interface ProtectedBranch {
  id: number;
  name: string;
  push_access_levels: { access_level: number; access_level_description: string }[];
  merge_access_levels: { access_level: number; access_level_description: string }[];
  allow_force_push: boolean;
  /** merge requests into the branch need their code owners' approval (GitLab Premium's field) */
  code_owner_approval_required?: boolean;
}

/** GitLab's Entities::ProtectedTag: a tag name or wildcard, and who may create matching tags. */
export interface ProtectedTag {
  name: string;
  create_access_levels: { id: number; access_level: number | null; access_level_description: string }[];
}

/** The project entity's settings fields the pages edit (GitLab's names). */
export interface ProjectSettings extends Project {
  merge_method?: 'merge' | 'rebase_merge' | 'ff';
  only_allow_merge_if_pipeline_succeeds?: boolean;
  allow_merge_on_skipped_pipeline?: boolean;
  merge_pipelines_enabled?: boolean;
  only_allow_merge_if_all_discussions_are_resolved?: boolean;
  resolve_outdated_diff_discussions?: boolean;
  merge_commit_template?: string | null;
  squash_commit_template?: string | null;
  merge_request_title_regex?: string | null;
  merge_request_title_regex_description?: string | null;
}

export const settingsKeys = {
  protectedBranches: (projectId: number) => ['projects', projectId, 'protected-branches'] as const,
  protectedTags: (projectId: number) => ['projects', projectId, 'protected-tags'] as const,
  pushRule: (projectId: number) => ['projects', projectId, 'push-rule'] as const,
};

/** GitLab's ProjectPushRule entity (GET /projects/:id/push_rule answers null without one). */
export interface PushRule {
  id: number;
  commit_message_regex: string | null;
  commit_message_negative_regex: string | null;
  branch_name_regex: string | null;
  author_email_regex: string | null;
  file_name_regex: string | null;
  deny_delete_tag: boolean;
  member_check: boolean;
  prevent_secrets: boolean;
  commit_committer_check: boolean;
  reject_unsigned_commits: boolean;
  max_file_size: number;
}

export const pushRuleQuery = (projectId: number) =>
  queryOptions({
    queryKey: settingsKeys.pushRule(projectId),
    queryFn: ({ signal }) => api.get<PushRule | null>(`/projects/${projectId}/push_rule`, { signal }),
  });

/** POST for a project without a rule, PUT for one with. */
export const savePushRuleMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...settingsKeys.pushRule(projectId), 'save'],
    mutationFn: ({ exists, body }: { exists: boolean; body: Record<string, unknown> }) =>
      exists ? api.put<PushRule>(`/projects/${projectId}/push_rule`, { body }) : api.post<PushRule>(`/projects/${projectId}/push_rule`, { body }),
  });

export const protectedTagsQuery = (projectId: number) =>
  queryOptions({
    queryKey: settingsKeys.protectedTags(projectId),
    queryFn: ({ signal }) => api.get<ProtectedTag[]>(`/projects/${projectId}/protected_tags`, { signal, query: { per_page: 100 } }),
  });

export const protectTagMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...settingsKeys.protectedTags(projectId), 'create'],
    mutationFn: (body: { name: string; create_access_level: number }) => api.post<ProtectedTag>(`/projects/${projectId}/protected_tags`, { body }),
  });

export const unprotectTagMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...settingsKeys.protectedTags(projectId), 'delete'],
    mutationFn: (name: string) => api.delete(`/projects/${projectId}/protected_tags/${encodeId(name)}`),
  });

export const protectedBranchesQuery = (projectId: number) =>
  queryOptions({
    queryKey: settingsKeys.protectedBranches(projectId),
    queryFn: ({ signal }) => api.get<ProtectedBranch[]>(`/projects/${projectId}/protected_branches`, { signal, query: { per_page: 100 } }),
  });

export const updateProjectMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'update'],
    mutationFn: (body: Record<string, unknown>) => api.put<ProjectSettings>(`/projects/${projectId}`, { body }),
  });

export const transferProjectMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'transfer'],
    mutationFn: (namespace: number) => api.put<Project>(`/projects/${projectId}/transfer`, { body: { namespace } }),
  });

export const archiveProjectMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'archive'],
    mutationFn: (archived: boolean) => api.post<Project>(`/projects/${projectId}/${archived ? 'archive' : 'unarchive'}`),
  });

export const deleteProjectMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: ['projects', projectId, 'delete'],
    mutationFn: () => api.delete(`/projects/${projectId}`),
  });

export const protectBranchMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...settingsKeys.protectedBranches(projectId), 'create'],
    mutationFn: (body: { name: string; push_access_level: number; merge_access_level: number; allow_force_push: boolean; code_owner_approval_required?: boolean }) =>
      api.post<ProtectedBranch>(`/projects/${projectId}/protected_branches`, { body }),
  });

/** PATCH a protected branch's "code owner approval required" (GitLab's protected branches API). */
export const codeOwnerApprovalMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...settingsKeys.protectedBranches(projectId), 'code-owner-approval'],
    mutationFn: ({ name, required }: { name: string; required: boolean }) =>
      api.patch<ProtectedBranch>(`/projects/${projectId}/protected_branches/${encodeId(name)}`, { body: { code_owner_approval_required: required } }),
  });

export const unprotectBranchMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...settingsKeys.protectedBranches(projectId), 'delete'],
    mutationFn: (name: string) => api.delete(`/projects/${projectId}/protected_branches/${encodeId(name)}`),
  });

export const updateGroupMutation = (groupId: number) =>
  mutationOptions({
    mutationKey: ['groups', groupId, 'update'],
    mutationFn: (body: Record<string, unknown>) => api.put<Group>(`/groups/${groupId}`, { body }),
  });

export const deleteGroupMutation = (groupId: number) =>
  mutationOptions({
    mutationKey: ['groups', groupId, 'delete'],
    mutationFn: () => api.delete(`/groups/${groupId}`),
  });

/** Up to 100 branch names, for the default branch choice. */
export const branchNamesQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['projects', projectId, 'branches', 'names'] as const,
    queryFn: async ({ signal }) =>
      (await api.get<{ name: string }[]>(`/projects/${projectId}/repository/branches`, { signal, query: { per_page: 100 } })).map((branch) => branch.name),
  });

/**
 * The caller's effective level in a group (GET /groups/:id/members/all/:user_id); 0 when they
 * are no member (the API's 404).
 */
export const groupAccessQuery = (groupId: number, userId: number | null) =>
  queryOptions({
    queryKey: ['groups', groupId, 'access', userId] as const,
    enabled: userId !== null,
    queryFn: async ({ signal }) => {
      try {
        return (await api.get<{ access_level: number }>(`/groups/${groupId}/members/all/${userId}`, { signal })).access_level;
      } catch (error) {
        if (error instanceof ApiError && error.isNotFound) return 0;
        throw error;
      }
    },
  });

export const transferGroupMutation = (groupId: number) =>
  mutationOptions({
    mutationKey: ['groups', groupId, 'transfer'],
    mutationFn: (parentId: number | null) => api.post<Group>(`/groups/${groupId}/transfer`, { body: parentId === null ? {} : { group_id: parentId } }),
  });

/** PUT /projects/:id with a multipart `avatar` (GitLab's way of setting it), with the session's CSRF header. */
export async function uploadProjectAvatar(projectId: number, file: File): Promise<ProjectSettings> {
  const form = new FormData();
  form.append('avatar', file, file.name);
  const token = queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY)?.csrf_token;
  const response = await fetch(`${API_PREFIX}/projects/${projectId}`, {
    method: 'PUT',
    body: form,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(token ? { [CSRF_HEADER]: token } : {}) },
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw apiErrorFromBody(response.status, body);
  return body as ProjectSettings;
}
