import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../app/client';

/**
 * The approvals section's REST calls (GitLab's merge request approvals API): approve (with the
 * head SHA, and the password when the project requires one), unapprove, and the approvals
 * summary, read for `require_password_to_approve` when the caller is about to approve.
 */
const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

export interface ApproveInput {
  sha: string | null;
  approvalPassword?: string;
}

export const approveMutation = (projectId: number, iid: number) =>
  mutationOptions({
    mutationKey: ['merge-widget', 'approve', projectId, iid],
    mutationFn: ({ sha, approvalPassword }: ApproveInput) =>
      api.post<unknown>(`${mrPath(projectId, iid)}/approve`, { body: { ...(sha ? { sha } : {}), ...(approvalPassword !== undefined ? { approval_password: approvalPassword } : {}) } }),
  });

export const unapproveMutation = (projectId: number, iid: number) =>
  mutationOptions({
    mutationKey: ['merge-widget', 'unapprove', projectId, iid],
    mutationFn: () => api.post<unknown>(`${mrPath(projectId, iid)}/unapprove`),
  });

/** Whether approving this merge request asks for the user's password. */
export async function passwordRequired(projectId: number, iid: number): Promise<boolean> {
  const approvals = await api.get<{ require_password_to_approve?: boolean }>(`${mrPath(projectId, iid)}/approvals`);
  return approvals.require_password_to_approve === true;
}
