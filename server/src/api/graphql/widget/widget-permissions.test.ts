import { describe, expect, it } from 'vitest';
import type { ProjectAction } from '../../../auth/permissions.js';
import { widgetPermissions, type WidgetPermissionFacts } from './widget-permissions.js';

const READER: ProjectAction[] = ['read_project', 'download_code', 'read_merge_request', 'fork_project'];
const DEVELOPER: ProjectAction[] = [...READER, 'push_code', 'update_merge_request', 'create_merge_request_from'];

function facts(overrides: Partial<WidgetPermissionFacts> = {}): WidgetPermissionFacts {
  return {
    signedIn: true,
    isAuthor: false,
    state: 'opened',
    target: new Set(DEVELOPER),
    source: new Set(DEVELOPER),
    mayMergeIntoTarget: true,
    pushAllowedOnSource: true,
    sourceBranchProtected: false,
    sourceIsDefaultBranch: false,
    sourceAtHead: true,
    allowCollaboration: false,
    mergedCommitSha: null,
    ...overrides,
  };
}

describe('widget permissions', () => {
  it('gives a Developer of an unprotected target everything on an open request', () => {
    expect(widgetPermissions(facts())).toEqual({
      canMerge: true,
      removeSourceBranch: true,
      updateMergeRequest: true,
      adminMergeRequest: true,
      pushToSourceBranch: true,
      revertOnCurrentMergeRequest: false,
      cherryPickOnCurrentMergeRequest: false,
      readMergeRequest: true,
    });
  });

  it.each([
    ['anonymous', { signedIn: false }, { canMerge: false, updateMergeRequest: false, adminMergeRequest: false, pushToSourceBranch: false, removeSourceBranch: false }],
    ['a reader', { target: new Set(READER), source: new Set(READER), mayMergeIntoTarget: false }, { canMerge: false, adminMergeRequest: false, pushToSourceBranch: false, updateMergeRequest: false }],
    ['a reader who wrote it', { target: new Set(READER), source: new Set(READER), isAuthor: true, mayMergeIntoTarget: false }, { updateMergeRequest: true, canMerge: false }],
    ['a Developer on a protected target', { mayMergeIntoTarget: false }, { canMerge: false, adminMergeRequest: true }],
    ['a protected source branch', { sourceBranchProtected: true, pushAllowedOnSource: true }, { removeSourceBranch: false, pushToSourceBranch: true }],
    ['a source branch protected against the caller', { sourceBranchProtected: true, pushAllowedOnSource: false }, { pushToSourceBranch: false }],
    ['the default branch as source', { sourceIsDefaultBranch: true }, { removeSourceBranch: false }],
    ['a source branch moved past the head', { sourceAtHead: false }, { removeSourceBranch: false }],
    ['an unreadable fork as source', { source: null }, { pushToSourceBranch: false, removeSourceBranch: false }],
    ['a fork that allows collaboration', { source: null, allowCollaboration: true }, { pushToSourceBranch: true }],
    ['a merged request', { state: 'merged', mergedCommitSha: 'a'.repeat(40) }, { revertOnCurrentMergeRequest: true, cherryPickOnCurrentMergeRequest: true }],
    ['a merged request, reader (into a fork)', { state: 'merged', mergedCommitSha: 'a'.repeat(40), target: new Set(READER) }, { revertOnCurrentMergeRequest: true }],
    ['a merged request without its commit', { state: 'merged', mergedCommitSha: null }, { revertOnCurrentMergeRequest: false }],
    ['a merged request, anonymous', { state: 'merged', mergedCommitSha: 'a'.repeat(40), signedIn: false }, { cherryPickOnCurrentMergeRequest: false }],
  ] as const)('%s', (_, overrides, expected) => {
    expect(widgetPermissions(facts(overrides as Partial<WidgetPermissionFacts>))).toMatchObject(expected);
  });
});
