import { describe, expect, it } from 'vitest';
import type { ProtectedBranch } from '../protected-branches/protected-branch.js';
import { checkBranchUpdate, PUSH_MESSAGES, type PusherFacts, type RefUpdateFacts } from '../protected-branches/push-rules.js';
import { checkPush } from '../pushes/push-policy.js';
import { collaborationAllowsUpdate, collaborationBranches, type CollaborationCandidate } from './collaboration.js';

const protection = (name: string, push: number, merge: number): ProtectedBranch => ({
  id: 1,
  project_id: 1,
  name,
  allow_force_push: false,
  code_owner_approval_required: false,
  rules: [
    { id: 1, kind: 'push', access_level: push, user_id: null, group_id: null },
    { id: 2, kind: 'merge', access_level: merge, user_id: null, group_id: null },
  ],
});

const fork = { id: 2, visibility: 'public' as const };
const maintainer: PusherFacts = { userId: 7, isAdmin: false, accessLevel: 40 };
const candidate = (overrides: Partial<CollaborationCandidate> = {}): CollaborationCandidate => ({
  state: 'opened',
  allowCollaboration: true,
  sourceBranch: 'feature',
  targetProjectId: 1,
  targetBranch: 'main',
  targetVisibility: 'public',
  targetArchived: false,
  merger: maintainer,
  targetProtections: [protection('main', 40, 40)],
  ...overrides,
});
const update = (overrides: Partial<RefUpdateFacts> = {}): RefUpdateFacts => ({ branch: 'feature', creating: false, deleting: false, forced: false, ...overrides });

describe('collaborationBranches', () => {
  it.each<[string, Partial<CollaborationCandidate>, { id: number; visibility: 'public' | 'internal' | 'private' }, ProtectedBranch[], string[]]>([
    ['an open request allowing collaboration, caller may merge the target branch', {}, fork, [], ['feature']],
    ['the request is closed', { state: 'closed' }, fork, [], []],
    ['the request is merged', { state: 'merged' }, fork, [], []],
    ['allow_collaboration is off', { allowCollaboration: false }, fork, [], []],
    ['the caller is a Developer and main merges by Maintainers', { merger: { ...maintainer, accessLevel: 30 } }, fork, [], []],
    ['the caller is a Developer and the target branch is unprotected', { merger: { ...maintainer, accessLevel: 30 }, targetProtections: [] }, fork, [], ['feature']],
    ['the caller is a Reporter of the target', { merger: { ...maintainer, accessLevel: 20 }, targetProtections: [] }, fork, [], []],
    ['the target project is archived', { targetArchived: true }, fork, [], []],
    ['the target project is private', { targetVisibility: 'private' }, fork, [], []],
    ['the fork is private', {}, { id: 2, visibility: 'private' }, [], []],
    ['the source branch is protected in the fork', {}, fork, [protection('feat*', 40, 40)], []],
    ['the request is not from a fork', { targetProjectId: 2 }, fork, [], []],
  ])('%s', (_name, overrides, source, sourceProtections, expected) => {
    expect(collaborationBranches(source, sourceProtections, [candidate(overrides)])).toEqual(expected);
  });

  it('one allowing request is enough among several for the same branch', () => {
    expect(collaborationBranches(fork, [], [candidate({ allowCollaboration: false }), candidate({ targetBranch: 'dev', targetProtections: [] })])).toEqual(['feature']);
  });
});

describe('collaboration uses the merge rule (canMergeIntoBranch)', () => {
  it('grants a Developer who may push to the protected target branch but not merge into it', () => {
    const pushOnly = { merger: { ...maintainer, accessLevel: 30 }, targetProtections: [protection('main', 30, 40)] };
    expect(collaborationBranches(fork, [], [candidate(pushOnly)])).toEqual(['feature']);
  });
});

describe('collaborationAllowsUpdate and the push rules', () => {
  const collaborator: PusherFacts = { userId: 7, isAdmin: false, accessLevel: 0, collaborationBranches: ['feature'] };
  it.each<[string, Partial<RefUpdateFacts>, string | null]>([
    ['a fast-forward of the granted branch', {}, null],
    ['another branch', { branch: 'other' }, PUSH_MESSAGES.notAllowed],
    ['a force push', { forced: true }, PUSH_MESSAGES.notAllowed],
    ['deleting the branch', { deleting: true }, PUSH_MESSAGES.notAllowed],
    ['creating the branch', { creating: true }, PUSH_MESSAGES.notAllowed],
  ])('%s', (_name, overrides, expected) => {
    expect(collaborationAllowsUpdate(collaborator.collaborationBranches!, update(overrides))).toBe(expected === null);
    expect(checkBranchUpdate(collaborator, update(overrides), [])).toBe(expected);
  });

  it('without granted branches a non-member is refused as before', () => {
    expect(checkBranchUpdate({ ...collaborator, collaborationBranches: [] }, update(), [])).toBe(PUSH_MESSAGES.notAllowed);
  });

  it('a whole push: the granted branch passes, a tag or a second branch refuses all of it', () => {
    const sha = (c: string) => c.repeat(40);
    const ff = { ref: 'refs/heads/feature', oldSha: sha('a'), newSha: sha('b'), forced: false };
    expect(checkPush(collaborator, [ff], [])).toBeNull();
    expect(checkPush(collaborator, [ff, { ref: 'refs/tags/v1', oldSha: sha('0'), newSha: sha('b') }], [])).toBe(PUSH_MESSAGES.notAllowed);
    expect(checkPush(collaborator, [ff, { ref: 'refs/heads/other', oldSha: sha('a'), newSha: sha('b'), forced: false }], [])).toBe(PUSH_MESSAGES.notAllowed);
    expect(checkPush({ ...collaborator, collaborationBranches: [] }, [ff], [])).toBe(PUSH_MESSAGES.notAllowed);
  });
});
