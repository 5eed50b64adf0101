/**
 * GitLab's draft rule (MergeRequest::DRAFT_REGEX): a merge request is a draft when its
 * title starts with `Draft:`, `[Draft]` or `(Draft)`, in any case. The "Mark as draft"
 * checkbox adds or removes the prefix, and typing the prefix ticks the box. Pure; the
 * server applies the same rule (server/src/domains/merge-requests/draft.ts).
 */
const DRAFT_PREFIX = /^(?:\[draft\]|\(draft\)|draft:)\s*/i;

/** What "Mark as draft" puts in front of a title. */
export const DRAFT_TITLE_PREFIX = 'Draft: ';

export function isDraftTitle(title: string): boolean {
  return DRAFT_PREFIX.test(title);
}

/** The title without its draft prefix. */
export function draftlessTitle(title: string): string {
  return title.replace(DRAFT_PREFIX, '');
}

/** The title marked (or unmarked) as a draft; a title already in that state is returned unchanged. */
export function titleWithDraft(title: string, draft: boolean): string {
  if (draft) return isDraftTitle(title) ? title : `${DRAFT_TITLE_PREFIX}${title}`;
  return draftlessTitle(title);
}
