import { api } from '../../app/client';
import type { CommitSummary, MergeRequest } from '../../lib/gitlab-types';
import { pickEndpoint, type PickCalls } from './pick';

/** The REST v4 calls of the Revert / Cherry-pick flow, in one project. */
export function pickCalls(projectId: number): PickCalls {
  const repo = `/projects/${projectId}/repository`;
  return {
    createBranch: (branch, ref) => api.post(`${repo}/branches`, { body: { branch, ref } }),
    deleteBranch: (branch) => api.delete(`${repo}/branches/${encodeURIComponent(branch)}`),
    apply: (kind, sha, branch) => api.post<CommitSummary>(`${repo}/commits/${encodeURIComponent(sha)}/${pickEndpoint(kind)}`, { body: { branch } }),
    createMergeRequest: (input) => api.post<MergeRequest>(`/projects/${projectId}/merge_requests`, { body: input }),
  };
}
