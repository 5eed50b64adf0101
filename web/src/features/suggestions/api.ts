import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import type { BatchEntry, SuggestionEntity } from './model';

export type { SuggestionEntity } from './model';

/** doc/api/suggestions.md */
export const suggestionsApi = {
  apply: (id: number, commitMessage?: string) => api.put<SuggestionEntity>(`/suggestions/${id}/apply`, { body: commitMessage ? { commit_message: commitMessage } : {} }),
  applyBatch: (ids: readonly number[], commitMessage?: string) =>
    api.put<SuggestionEntity[]>('/suggestions/batch_apply', { body: commitMessage ? { ids, commit_message: commitMessage } : { ids } }),
};

/**
 * The suggestions picked for a batch on one merge request page. It lives in the query cache
 * (never fetched, only set) so every note of the page shares it without a provider.
 */
export const batchKey = (projectId: number, iid: number) => ['suggestion-batch', projectId, iid] as const;

export const batchQuery = (projectId: number, iid: number) =>
  queryOptions({
    queryKey: batchKey(projectId, iid),
    queryFn: (): BatchEntry[] => [],
    initialData: [] as BatchEntry[],
    staleTime: Infinity,
    gcTime: Infinity,
  });
