import { describe, expect, it } from 'vitest';
import { mergeRequestVariables, type MergeRequestVariablesInput } from './merge-request-variables.js';

const input: MergeRequestVariablesInput = {
  serverUrl: 'https://git.example/',
  eventType: 'detached',
  mergeRequest: { id: 41, iid: 7, title: 'Add the widget', description: '', sourceBranch: 'feature', targetBranch: 'main', draft: false, squashOnMerge: false },
  targetProject: { id: 3, fullPath: 'acme/app' },
  sourceProject: { id: 3, fullPath: 'acme/app' },
  sourceBranchProtected: false,
  targetBranchProtected: true,
  sourceSha: null,
  targetSha: null,
  diff: { id: 90, baseSha: 'b'.repeat(40) },
  labels: [],
  milestone: null,
  assignees: [],
};
const asMap = (vars: { key: string; value: string }[]) => Object.fromEntries(vars.map((v) => [v.key, v.value]));

describe('mergeRequestVariables', () => {
  it('names the merge request, its branches and projects as GitLab does', () => {
    expect(asMap(mergeRequestVariables(input))).toEqual({
      CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
      CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: '',
      CI_MERGE_REQUEST_TARGET_BRANCH_SHA: '',
      CI_MERGE_REQUEST_DIFF_ID: '90',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: 'b'.repeat(40),
      CI_MERGE_REQUEST_ID: '41',
      CI_MERGE_REQUEST_IID: '7',
      CI_MERGE_REQUEST_REF_PATH: 'refs/merge-requests/7/head',
      CI_MERGE_REQUEST_PROJECT_ID: '3',
      CI_MERGE_REQUEST_PROJECT_PATH: 'acme/app',
      CI_MERGE_REQUEST_PROJECT_URL: 'https://git.example/acme/app',
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED: 'true',
      CI_MERGE_REQUEST_TITLE: 'Add the widget',
      CI_MERGE_REQUEST_SQUASH_ON_MERGE: 'false',
      CI_MERGE_REQUEST_DRAFT: 'false',
      CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '3',
      CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'acme/app',
      CI_MERGE_REQUEST_SOURCE_PROJECT_URL: 'https://git.example/acme/app',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
      CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED: 'false',
    });
  });

  it('gives a merged results pipeline the head and target it merged, and lists labels, milestone and assignees', () => {
    const vars = asMap(
      mergeRequestVariables({ ...input, eventType: 'merged_result', sourceSha: 'a'.repeat(40), targetSha: 'c'.repeat(40), labels: ['bug', 'ui'], milestone: 'v1', assignees: ['ada', 'bob'] }),
    );
    expect(vars).toMatchObject({
      CI_MERGE_REQUEST_EVENT_TYPE: 'merged_result',
      CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: 'a'.repeat(40),
      CI_MERGE_REQUEST_TARGET_BRANCH_SHA: 'c'.repeat(40),
      CI_MERGE_REQUEST_LABELS: 'bug,ui',
      CI_MERGE_REQUEST_MILESTONE: 'v1',
      CI_MERGE_REQUEST_ASSIGNEES: 'ada,bob',
    });
  });

  it('names a fork as the source project and truncates a long description', () => {
    const vars = asMap(mergeRequestVariables({ ...input, sourceProject: { id: 9, fullPath: 'ada/app' }, mergeRequest: { ...input.mergeRequest, description: 'x'.repeat(3000) } }));
    expect(vars.CI_MERGE_REQUEST_SOURCE_PROJECT_PATH).toBe('ada/app');
    expect(vars.CI_MERGE_REQUEST_PROJECT_PATH).toBe('acme/app');
    expect(vars.CI_MERGE_REQUEST_DESCRIPTION).toHaveLength(2700);
    expect(vars.CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED).toBe('true');
  });

  it('leaves out the source project variables when the source project is gone', () => {
    expect(Object.keys(asMap(mergeRequestVariables({ ...input, sourceProject: null }))).some((key) => key.startsWith('CI_MERGE_REQUEST_SOURCE_PROJECT'))).toBe(false);
  });
});
