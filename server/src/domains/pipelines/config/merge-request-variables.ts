/**
 * The `CI_MERGE_REQUEST_*` variables of a merge request pipeline, as GitLab defines them
 * (Ci::Pipeline#predefined_variables for a merge request pipeline, with
 * MergeRequest#predefined_variables and #source_project_variables). Pure.
 */

/** GitLab's merge request event types: detached (the source head), merged_result (the trial merge), merge_train. */
export type MergeRequestEventType = 'detached' | 'merged_result' | 'merge_train';

/** GitLab truncates the description it passes to jobs. */
export const CI_MERGE_REQUEST_DESCRIPTION_MAX_LENGTH = 2700;

export interface MergeRequestVariablesInput {
  serverUrl: string;
  eventType: MergeRequestEventType;
  mergeRequest: {
    id: number;
    iid: number;
    title: string;
    description: string;
    sourceBranch: string;
    targetBranch: string;
    draft: boolean;
    squashOnMerge: boolean;
  };
  targetProject: { id: number; fullPath: string };
  /** null when the source project is gone */
  sourceProject: { id: number; fullPath: string } | null;
  sourceBranchProtected: boolean;
  targetBranchProtected: boolean;
  /** a merged results pipeline's source head and target tip; null for a detached one (GitLab leaves them empty) */
  sourceSha: string | null;
  targetSha: string | null;
  /** the latest version and its merge base */
  diff: { id: number; baseSha: string | null } | null;
  labels: readonly string[];
  milestone: string | null;
  assignees: readonly string[];
}

export function mergeRequestVariables(input: MergeRequestVariablesInput): { key: string; value: string }[] {
  const { mergeRequest: mr } = input;
  const base = input.serverUrl.replace(/\/+$/, '');
  const vars: [string, string][] = [
    ['CI_MERGE_REQUEST_EVENT_TYPE', input.eventType],
    ['CI_MERGE_REQUEST_SOURCE_BRANCH_SHA', input.sourceSha ?? ''],
    ['CI_MERGE_REQUEST_TARGET_BRANCH_SHA', input.targetSha ?? ''],
  ];
  if (input.diff) {
    vars.push(['CI_MERGE_REQUEST_DIFF_ID', String(input.diff.id)]);
    if (input.diff.baseSha) vars.push(['CI_MERGE_REQUEST_DIFF_BASE_SHA', input.diff.baseSha]);
  }
  vars.push(
    ['CI_MERGE_REQUEST_ID', String(mr.id)],
    ['CI_MERGE_REQUEST_IID', String(mr.iid)],
    ['CI_MERGE_REQUEST_REF_PATH', `refs/merge-requests/${mr.iid}/head`],
    ['CI_MERGE_REQUEST_PROJECT_ID', String(input.targetProject.id)],
    ['CI_MERGE_REQUEST_PROJECT_PATH', input.targetProject.fullPath],
    ['CI_MERGE_REQUEST_PROJECT_URL', `${base}/${input.targetProject.fullPath}`],
    ['CI_MERGE_REQUEST_TARGET_BRANCH_NAME', mr.targetBranch],
    ['CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED', String(input.targetBranchProtected)],
    ['CI_MERGE_REQUEST_TITLE', mr.title],
  );
  if (mr.description) vars.push(['CI_MERGE_REQUEST_DESCRIPTION', mr.description.slice(0, CI_MERGE_REQUEST_DESCRIPTION_MAX_LENGTH)]);
  if (mr.description.length > CI_MERGE_REQUEST_DESCRIPTION_MAX_LENGTH) vars.push(['CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED', 'true']);
  else if (mr.description) vars.push(['CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED', 'false']);
  if (input.assignees.length > 0) vars.push(['CI_MERGE_REQUEST_ASSIGNEES', input.assignees.join(',')]);
  if (input.milestone !== null) vars.push(['CI_MERGE_REQUEST_MILESTONE', input.milestone]);
  if (input.labels.length > 0) vars.push(['CI_MERGE_REQUEST_LABELS', input.labels.join(',')]);
  vars.push(['CI_MERGE_REQUEST_SQUASH_ON_MERGE', String(mr.squashOnMerge)], ['CI_MERGE_REQUEST_DRAFT', String(mr.draft)]);
  if (input.sourceProject) {
    vars.push(
      ['CI_MERGE_REQUEST_SOURCE_PROJECT_ID', String(input.sourceProject.id)],
      ['CI_MERGE_REQUEST_SOURCE_PROJECT_PATH', input.sourceProject.fullPath],
      ['CI_MERGE_REQUEST_SOURCE_PROJECT_URL', `${base}/${input.sourceProject.fullPath}`],
      ['CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', mr.sourceBranch],
      ['CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED', String(input.sourceBranchProtected)],
    );
  }
  return vars.map(([key, value]) => ({ key, value }));
}
