/**
 * GitLab's draft rule (MergeRequest::DRAFT_REGEX over Gitlab::Regex.merge_request_draft): a
 * title is a draft when it starts with `Draft:`, `[Draft]` or `(Draft)`, in any case; the
 * prefix and the whitespace after it are what "draftless" removes. GitLab's pattern repeats
 * an anchored group, so only one prefix ever matches. Pure.
 */
const DRAFT_PREFIX = /^(?:\[draft\]|\(draft\)|draft:)\s*/i;

export function isDraftTitle(title: string): boolean {
  return DRAFT_PREFIX.test(title);
}

/** The title without its draft prefix. */
export function draftlessTitle(title: string): string {
  return title.replace(DRAFT_PREFIX, '');
}

/** The title as a draft: unchanged when it already is one, else prefixed with `Draft: `. */
export function draftTitle(title: string): string {
  return isDraftTitle(title) ? title : `Draft: ${title}`;
}

/** Applies the `draft` flag of an API call (true: mark, false: unmark, undefined: keep). */
export function titleWithDraft(title: string, draft: boolean | undefined): string {
  if (draft === undefined) return title;
  return draft ? draftTitle(title) : draftlessTitle(title);
}
