/** The suggestion records the API returns and the batch the page collects: types only. */

/** GitLab's Entities::Suggestion, with what its web entity adds (the server sends both). */
export interface SuggestionEntity {
  id: number;
  from_line: number;
  to_line: number;
  appliable: boolean;
  applied: boolean;
  from_content: string;
  to_content: string;
  inapplicable_reason: string | null;
  current_user: { can_apply: boolean };
}

/** One suggestion picked for a batch, with the thread it belongs to (resolved after applying). */
export interface BatchEntry {
  suggestionId: number;
  discussionId: string;
}
