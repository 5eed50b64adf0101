import type { CommitSummary, MergeRequest } from '../../lib/gitlab-types';

export type PickKind = 'revert' | 'cherry-pick';

/** GitLab's names for the new branch (Commit#revert_branch_name, #cherry_pick_branch_name). Pure. */
export function pickBranchName(kind: PickKind, sha: string): string {
  return `${kind}-${sha.slice(0, 8)}`;
}

/** The commits API path segment for each kind. Pure. */
export function pickEndpoint(kind: PickKind): 'revert' | 'cherry_pick' {
  return kind === 'revert' ? 'revert' : 'cherry_pick';
}

export interface PickRequest {
  kind: PickKind;
  sha: string;
  targetBranch: string;
  startMergeRequest: boolean;
}

export type PickDone = { mergeRequest: MergeRequest } | { commit: CommitSummary };

/** The REST calls the flow makes; api.ts gives the real ones. */
export interface PickCalls {
  createBranch(branch: string, ref: string): Promise<unknown>;
  deleteBranch(branch: string): Promise<unknown>;
  apply(kind: PickKind, sha: string, branch: string): Promise<CommitSummary>;
  createMergeRequest(input: { source_branch: string; target_branch: string; title: string }): Promise<MergeRequest>;
}

/**
 * GitLab's Revert / Cherry-pick flow: straight into the target branch, or (the default) on a
 * new branch cut from the target, then a merge request from it. A refused change removes the
 * branch it created, so a conflict leaves nothing behind (gitlab-foss#13716).
 */
export async function runPick(calls: PickCalls, request: PickRequest): Promise<PickDone> {
  if (!request.startMergeRequest) return { commit: await calls.apply(request.kind, request.sha, request.targetBranch) };
  const branch = pickBranchName(request.kind, request.sha);
  await calls.createBranch(branch, request.targetBranch);
  let commit: CommitSummary;
  try {
    commit = await calls.apply(request.kind, request.sha, branch);
  } catch (error) {
    await calls.deleteBranch(branch).catch(() => undefined);
    throw error;
  }
  return { mergeRequest: await calls.createMergeRequest({ source_branch: branch, target_branch: request.targetBranch, title: commit.title }) };
}
