import { api } from '../../app/client';
import type { CommitSummary, MergeRequest } from '../../lib/gitlab-types';
import { pickEndpoint, type PickCalls, type PickKind } from './pick';

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

/** What the server answers for a pick made into a new branch and merge request (in a fork when the caller cannot push). */
export interface PickIntoResult {
  merge_request: { iid: number; project_id: number; source_project_id: number; source_branch: string; web_url: string };
  /** GitLab's notice when a fork was made for it */
  notice: string | null;
}

/**
 * The server-side flow (server/src/api/web/commit-picks.routes.ts): for a caller who cannot
 * push, the branch lives in their fork, which only the server can bring up to date.
 */
export function pickIntoNewMergeRequest(projectId: number, kind: PickKind, sha: string, targetBranch: string): Promise<PickIntoResult> {
  return api.post<PickIntoResult>(`/-/projects/${projectId}/commits/${encodeURIComponent(sha)}/${pickEndpoint(kind)}`, { body: { target_branch: targetBranch } });
}
