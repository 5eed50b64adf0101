import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';

export interface DescriptionVersion {
  id: number;
  description: string;
  author_id: number | null;
  created_at: string;
  deleted: boolean;
  deleted_at: string | null;
  /** the "changed the description" system note made for it */
  note_id: number | null;
  can_delete: boolean;
}

export interface DescriptionDiff {
  version: { id: number };
  start_version: { id: number } | null;
  diff: Array<{ type: 'same' | 'added' | 'removed'; text: string }>;
}

const base = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}/description_versions`;

export const descriptionVersionKeys = {
  list: (projectId: number, iid: number) => ['projects', projectId, 'merge_requests', iid, 'description_versions'] as const,
  diff: (projectId: number, iid: number, versionId: number) => [...descriptionVersionKeys.list(projectId, iid), versionId, 'diff'] as const,
};

export const descriptionVersionsQuery = (projectId: number, iid: number) =>
  queryOptions({
    queryKey: descriptionVersionKeys.list(projectId, iid),
    queryFn: ({ signal }) => api.get<DescriptionVersion[]>(base(projectId, iid), { signal }),
  });

/** Fetched once per version ("toggled and fetched once"). */
export const descriptionDiffQuery = (projectId: number, iid: number, versionId: number) =>
  queryOptions({
    queryKey: descriptionVersionKeys.diff(projectId, iid, versionId),
    queryFn: ({ signal }) => api.get<DescriptionDiff>(`${base(projectId, iid)}/${versionId}/diff`, { signal }),
    staleTime: Infinity,
  });

export const deleteDescriptionVersionMutation = (projectId: number, iid: number) =>
  mutationOptions({
    mutationFn: (versionId: number) => api.delete(`${base(projectId, iid)}/${versionId}`),
  });
