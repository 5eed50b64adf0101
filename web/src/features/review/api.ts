import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../app/client';

/**
 * The review batch's calls (doc/api/draft_notes.md): the caller's own draft notes of one
 * merge request, and their writes. Drafts are their author's only, so the list is read
 * only for a signed-in user.
 */

/** GitLab's Entities::DraftNote as server/src/api/rest/entities/notes.ts presents it. */
export interface DraftNote {
  id: number;
  author_id: number;
  merge_request_id: number;
  resolve_discussion: boolean;
  /** the thread a draft reply goes to; null for a new comment */
  discussion_id: string | null;
  note: string;
  commit_id: string | null;
  line_code: string | null;
  /** {} without a position; a diff draft's position otherwise */
  position: { new_path?: string; old_path?: string; new_line?: number | null; old_line?: number | null } & Record<string, unknown>;
}

export interface ReviewTarget {
  projectId: number;
  iid: number;
}

const draftsPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}/draft_notes`;

export const reviewKeys = {
  /** Shared with the diff comments, which create drafts and invalidate this key: keep it exactly. */
  drafts: (projectId: number, iid: number) => ['merge-request', projectId, iid, 'draft-notes'] as const,
};

/** What the review drawer's Approve needs to know (GitLab's merge request approvals answer). */
export interface ApprovalAbility {
  user_can_approve: boolean;
  require_password_to_approve: boolean;
}

/** Read when the drawer opens, never cached across openings (GitLab reads canApprove network-only). */
export const approvalAbilityQuery = (projectId: number, iid: number) =>
  queryOptions({
    queryKey: ['merge-request', projectId, iid, 'approval-ability'] as const,
    queryFn: ({ signal }) => api.get<ApprovalAbility>(`/projects/${projectId}/merge_requests/${iid}/approvals`, { signal }),
    staleTime: 0,
    gcTime: 0,
  });

export const draftNotesQuery = (projectId: number, iid: number) =>
  queryOptions({
    queryKey: reviewKeys.drafts(projectId, iid),
    queryFn: ({ signal }) => api.get<DraftNote[]>(draftsPath(projectId, iid), { signal }),
  });

/** The caller's drafts; none (and no request) when signed out. */
export function useDraftNotes(target: ReviewTarget, signedIn: boolean): DraftNote[] {
  const query = useQuery({ ...draftNotesQuery(target.projectId, target.iid), enabled: signedIn });
  return signedIn ? (query.data ?? []) : [];
}

/** The verdict of Submit review: a plain comment, an approval, or a change request. */
export type ReviewVerdict = 'comment' | 'approve' | 'requested_changes';

export const draftsApi = {
  create: ({ projectId, iid }: ReviewTarget, input: { note: string; internal?: boolean; discussionId?: string; resolveDiscussion?: boolean }) =>
    api.post<DraftNote>(draftsPath(projectId, iid), {
      body: {
        note: input.note,
        ...(input.internal ? { internal: true } : {}),
        ...(input.discussionId ? { in_reply_to_discussion_id: input.discussionId } : {}),
        ...(input.resolveDiscussion ? { resolve_discussion: true } : {}),
      },
    }),
  update: ({ projectId, iid }: ReviewTarget, id: number, note: string) => api.put<DraftNote>(`${draftsPath(projectId, iid)}/${id}`, { body: { note } }),
  remove: ({ projectId, iid }: ReviewTarget, id: number) => api.delete(`${draftsPath(projectId, iid)}/${id}`),
  /**
   * Publishes every draft of the caller at once, with the review's verdict when one was chosen
   * (GitLab's review drawer: `approve` with the password when required, or `reviewer_state`).
   */
  publishAll: ({ projectId, iid }: ReviewTarget, summary?: string, verdict: ReviewVerdict = 'comment', approvalPassword?: string) =>
    api.post<void>(`${draftsPath(projectId, iid)}/bulk_publish`, {
      body: {
        ...(summary && summary.trim() !== '' ? { note: summary } : {}),
        ...(verdict === 'approve' ? { approve: true, ...(approvalPassword ? { approval_password: approvalPassword } : {}) } : {}),
        ...(verdict === 'requested_changes' ? { reviewer_state: 'requested_changes' } : {}),
      },
    }),
};
