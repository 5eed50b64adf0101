import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notesKeys } from '../notes';
import { draftsApi, type ReviewVerdict, reviewKeys, type ReviewTarget } from './api';

/** Draft writes; each refreshes the caller's drafts (and publishing, the threads). */
export function useReviewActions(target: ReviewTarget) {
  const client = useQueryClient();
  const refreshDrafts = () => client.invalidateQueries({ queryKey: reviewKeys.drafts(target.projectId, target.iid) });

  const addDraft = useMutation({
    mutationFn: (input: { note: string; internal?: boolean; discussionId?: string; resolveDiscussion?: boolean }) => draftsApi.create(target, input),
    onSuccess: () => refreshDrafts(),
  });
  const updateDraft = useMutation({
    mutationFn: (input: { id: number; note: string }) => draftsApi.update(target, input.id, input.note),
    onSuccess: () => refreshDrafts(),
  });
  const removeDraft = useMutation({
    mutationFn: (id: number) => draftsApi.remove(target, id),
    onSuccess: () => refreshDrafts(),
  });
  /**
   * Submit review: bulk_publish publishes every draft and the optional summary in one request,
   * so nobody sees half a review; the summary is a plain comment, not a thread to resolve.
   */
  const submitReview = useMutation({
    mutationFn: ({ summary, verdict, approvalPassword }: { summary: string; verdict: ReviewVerdict; approvalPassword?: string }) => draftsApi.publishAll(target, summary, verdict, approvalPassword),
    onSettled: () =>
      Promise.all([
        refreshDrafts(),
        client.invalidateQueries({ queryKey: notesKeys.discussions(target.projectId, target.iid) }),
        // a verdict changes the approvals and merge checks: the merge widget's queries (key 'merge-widget') read again
        client.invalidateQueries({ queryKey: ['merge-widget'] }),
      ]),
  });
  /** Discard review: every draft deleted (GitLab's web app deletes them all at once). */
  const discardReview = useMutation({
    mutationFn: async (ids: readonly number[]) => {
      for (const id of ids) await draftsApi.remove(target, id);
    },
    onSettled: () => refreshDrafts(),
  });
  return { addDraft, updateDraft, removeDraft, submitReview, discardReview };
}
