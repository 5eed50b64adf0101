/** The merge options as the form offers them and the sidebar states them: one wording for both. */
export const MERGE_OPTION = {
  deleteSourceBranch: 'Delete source branch when merge request is accepted',
  squash: 'Squash commits when merge request is accepted',
} as const;
