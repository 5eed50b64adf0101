import { describe, expect, it } from 'vitest';
import {
  canAssignAccessLevel,
  canAwardMergeRequest,
  canChangeMember,
  canCreateNote,
  canRead,
  canUpdateMergeRequest,
  canReadPipelineVariables,
  canUpdatePipelineSchedule,
  groupAbilities,
  noteAbilities,
  projectAbilities,
  type NoteSubject,
  type SubjectContext,
} from './permissions.js';

const ctx = (overrides: Partial<SubjectContext>): SubjectContext => ({ userId: 1, isAdmin: false, accessLevel: 0, visibility: 'private', ...overrides });

describe('canRead', () => {
  it.each([
    ['anonymous, public', { userId: null, visibility: 'public' }, true],
    ['anonymous, internal', { userId: null, visibility: 'internal' }, false],
    ['anonymous, private', { userId: null, visibility: 'private' }, false],
    ['signed in non-member, internal', { visibility: 'internal' }, true],
    ['signed in non-member, private', { visibility: 'private' }, false],
    ['guest, private', { accessLevel: 10 }, true],
    ['minimal access, private', { accessLevel: 5 }, false],
    ['admin, private', { isAdmin: true }, true],
  ] as const)('%s → %s', (_name, overrides, expected) => {
    expect(canRead(ctx(overrides as Partial<SubjectContext>))).toBe(expected);
  });
});

describe('projectAbilities', () => {
  it.each([
    ['stranger of a private project has nothing', { accessLevel: 0 }, [], ['read_project']],
    ['guest reads but cannot download private code', { accessLevel: 10 }, ['read_project'], ['download_code', 'push_code']],
    ['guest downloads code of an internal project', { accessLevel: 10, visibility: 'internal' }, ['download_code'], ['push_code']],
    ['anonymous downloads public code but cannot fork', { userId: null, visibility: 'public' }, ['download_code'], ['fork_project', 'push_code']],
    ['reporter downloads private code', { accessLevel: 20 }, ['download_code'], ['push_code']],
    ['developer pushes and branches', { accessLevel: 30 }, ['push_code', 'create_branch', 'delete_branch'], ['admin_project', 'admin_cicd_variables']],
    ['developer cannot push to an archived project', { accessLevel: 30, archived: true }, ['download_code'], ['push_code']],
    ['maintainer administers', { accessLevel: 40 }, ['admin_project', 'admin_members', 'admin_protected_branches', 'admin_cicd_variables'], ['remove_project', 'destroy_merge_request']],
    ['owner removes and changes visibility', { accessLevel: 50 }, ['remove_project', 'change_visibility', 'destroy_merge_request'], []],
    ['admin can do everything', { isAdmin: true }, ['remove_project', 'push_code', 'destroy_merge_request'], []],
  ] as const)('%s', (_name, overrides, granted, denied) => {
    const abilities = projectAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });
});

describe('merge request abilities', () => {
  it.each([
    ['stranger of a private project sees none', { accessLevel: 0 }, [], ['read_merge_request', 'create_merge_request_in']],
    ['guest of a private project cannot read them (they show code)', { accessLevel: 10 }, [], ['read_merge_request', 'create_merge_request_in']],
    ['reporter reads and may target the project', { accessLevel: 20 }, ['read_merge_request', 'create_merge_request_in'], ['create_merge_request_from', 'update_merge_request']],
    ['developer opens from and updates any', { accessLevel: 30 }, ['create_merge_request_from', 'update_merge_request'], []],
    ['signed-in stranger of a public project may target it (from a fork)', { visibility: 'public' }, ['read_merge_request', 'create_merge_request_in'], ['create_merge_request_from']],
    ['anonymous reads public ones but cannot open any', { userId: null, visibility: 'public' }, ['read_merge_request'], ['create_merge_request_in']],
    ['nobody opens into an archived project', { accessLevel: 40, archived: true }, ['read_merge_request'], ['create_merge_request_in', 'create_merge_request_from']],
    ['guests and reporters do not approve', { accessLevel: 20, visibility: 'public' }, ['read_merge_request'], ['approve_merge_request', 'admin_merge_request_approvals']],
    ['developers approve, not change the rules', { accessLevel: 30 }, ['approve_merge_request'], ['admin_merge_request_approvals']],
    ['maintainers change the rules and settings', { accessLevel: 40 }, ['approve_merge_request', 'admin_merge_request_approvals'], []],
    ['nobody approves in an archived project', { accessLevel: 40, archived: true }, [], ['approve_merge_request']],
  ] as const)('%s', (_name, overrides, granted, denied) => {
    const abilities = projectAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });

  it.each([
    ['developer, not the author', 30, false, true],
    ['reporter, not the author', 20, false, false],
    ['reporter, the author', 20, true, true],
    ['guest author who can no longer read the code', 10, true, false],
  ] as const)('update: %s → %s', (_name, accessLevel, isAuthor, expected) => {
    expect(canUpdateMergeRequest(projectAbilities(ctx({ accessLevel })), isAuthor)).toBe(expected);
  });
});

describe('pipeline schedule abilities', () => {
  it.each([
    ['stranger of a private project has none', { accessLevel: 0 }, [], ['read_pipeline_schedule', 'create_pipeline_schedule']],
    ['guest has none', { accessLevel: 10 }, [], ['read_pipeline_schedule', 'create_pipeline_schedule']],
    ['reporter reads them', { accessLevel: 20 }, ['read_pipeline_schedule'], ['create_pipeline_schedule', 'admin_pipeline_schedule']],
    ['developer creates', { accessLevel: 30 }, ['read_pipeline_schedule', 'create_pipeline_schedule'], ['admin_pipeline_schedule']],
    ['maintainer administers', { accessLevel: 40 }, ['create_pipeline_schedule', 'admin_pipeline_schedule'], []],
    ['nobody creates in an archived project', { accessLevel: 40, archived: true }, ['read_pipeline_schedule'], ['create_pipeline_schedule', 'admin_pipeline_schedule']],
    ['none without CI/CD', { accessLevel: 40, features: { builds_access_level: 0 } }, [], ['read_pipeline_schedule', 'create_pipeline_schedule']],
  ] as const)('%s', (_name, overrides, granted, denied) => {
    const abilities = projectAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });

  it.each([
    ['developer, the owner', 30, true, true],
    ['developer, not the owner', 30, false, false],
    ['reporter, the owner (demoted)', 20, true, false],
    ['maintainer, not the owner', 40, false, true],
  ] as const)('update: %s → %s', (_name, accessLevel, isOwner, expected) => {
    expect(canUpdatePipelineSchedule(projectAbilities(ctx({ accessLevel })), isOwner)).toBe(expected);
  });
});

describe('canReadPipelineVariables', () => {
  it.each([
    ['maintainer, not the triggerer', { accessLevel: 40 }, false, true],
    ['developer, the triggerer', { accessLevel: 30 }, true, true],
    ['developer, not the triggerer', { accessLevel: 30 }, false, false],
    ['reporter, the triggerer (demoted)', { accessLevel: 20 }, true, false],
    ['maintainer without the builds feature', { accessLevel: 40, features: { builds_access_level: 0 } }, false, false],
  ] as const)('%s → %s', (_name, overrides, isTriggerer, expected) => {
    expect(canReadPipelineVariables(projectAbilities(ctx(overrides as Partial<SubjectContext>)), isTriggerer)).toBe(expected);
  });
});

describe('groupAbilities', () => {
  it.each([
    ['guest reads', { accessLevel: 10 }, ['read_group'], ['create_projects']],
    ['developer creates projects', { accessLevel: 30 }, ['create_projects'], ['create_subgroup']],
    ['maintainer creates subgroups', { accessLevel: 40 }, ['create_subgroup'], ['admin_group', 'admin_members', 'admin_cicd_variables']],
    ['owner administers', { accessLevel: 50 }, ['admin_group', 'admin_members', 'remove_group', 'admin_cicd_variables'], []],
    ['stranger of a public group only reads', { visibility: 'public' }, ['read_group'], ['create_projects']],
  ] as const)('%s', (_name, overrides, granted, denied) => {
    const abilities = groupAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });
});

describe('canAssignAccessLevel', () => {
  it.each([
    [40, false, 30, true],
    [40, false, 40, true],
    [40, false, 50, false],
    [50, false, 50, true],
    [30, false, 40, false],
    [0, true, 50, true],
  ])('caller %i (admin %s) assigning %i → %s', (caller, admin, requested, expected) => {
    expect(canAssignAccessLevel(caller, admin, requested)).toBe(expected);
  });
});

describe('canChangeMember', () => {
  it.each([
    [40, false, 30, true],
    [40, false, 50, false],
    [50, false, 50, true],
    [0, true, 50, true],
  ])('caller %i (admin %s) changing a member at %i → %s', (caller, admin, target, expected) => {
    expect(canChangeMember(caller, admin, target)).toBe(expected);
  });
});

describe('note abilities', () => {
  const project = (overrides: Partial<SubjectContext>) => projectAbilities(ctx(overrides));
  const note = (overrides: Partial<NoteSubject> = {}): NoteSubject => ({
    userId: 1,
    noteAuthorId: 2,
    mergeRequestAuthorId: 3,
    discussionLocked: false,
    system: false,
    internal: false,
    resolvable: true,
    ...overrides,
  });

  it.each([
    ['anonymous on a public project reads but cannot comment', { userId: null, visibility: 'public' }, { locked: false, internal: false }, false],
    ['signed-in stranger comments on a public project', { visibility: 'public' }, { locked: false, internal: false }, true],
    ['signed-in stranger cannot comment on a locked discussion', { visibility: 'public' }, { locked: true, internal: false }, false],
    ['guest member comments on a locked discussion (internal project)', { visibility: 'internal', accessLevel: 10 }, { locked: true, internal: false }, true],
    ['guest cannot write an internal note', { visibility: 'internal', accessLevel: 10 }, { locked: false, internal: true }, false],
    ['reporter writes an internal note', { accessLevel: 20 }, { locked: false, internal: true }, true],
    ['nobody comments in an archived project', { accessLevel: 50, archived: true }, { locked: false, internal: false }, false],
    ['stranger of a private project', { accessLevel: 0 }, { locked: false, internal: false }, false],
  ] as const)('create: %s → %s', (_name, overrides, options, expected) => {
    expect(canCreateNote(project(overrides as Partial<SubjectContext>), { discussionLocked: options.locked, internal: options.internal })).toBe(expected);
  });

  it.each([
    ['guest of an internal project does not see an internal note', { visibility: 'internal', accessLevel: 10 }, { internal: true }, [], ['read_note']],
    ['reporter sees and replies to an internal note', { accessLevel: 20 }, { internal: true }, ['read_note', 'reply_to_note'], ['update_note', 'delete_note']],
    ['admin sees an internal note', { isAdmin: true }, { internal: true }, ['read_note', 'delete_note'], []],
    ['author edits and deletes their own note', { accessLevel: 20 }, { noteAuthorId: 1 }, ['update_note', 'delete_note'], ['resolve_note']],
    ['developer resolves but cannot edit or delete another\'s note', { accessLevel: 30 }, {}, ['resolve_note'], ['update_note', 'delete_note']],
    ['maintainer deletes another\'s note but does not edit it', { accessLevel: 40 }, {}, ['delete_note', 'resolve_note'], ['update_note']],
    ['the merge request author resolves threads on it', { visibility: 'public' }, { mergeRequestAuthorId: 1 }, ['resolve_note'], ['delete_note']],
    ['an individual note cannot be resolved', { accessLevel: 40 }, { resolvable: false }, ['delete_note'], ['resolve_note']],
    ['system notes are nobody\'s to edit or delete', { accessLevel: 50 }, { system: true, noteAuthorId: 1, resolvable: false }, ['read_note', 'award_emoji'], ['update_note', 'delete_note']],
    ['locked: a stranger may no longer edit their own note', { visibility: 'public' }, { discussionLocked: true, noteAuthorId: 1 }, ['read_note'], ['update_note', 'reply_to_note', 'award_emoji']],
    ['anonymous reads only', { userId: null, visibility: 'public' }, { userId: null }, ['read_note'], ['reply_to_note', 'award_emoji']],
  ] as const)('%s', (_name, overrides, subject, granted, denied) => {
    const abilities = noteAbilities(project(overrides as Partial<SubjectContext>), note(subject as Partial<NoteSubject>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });

  it('awards on the merge request follow the lock', () => {
    expect(canAwardMergeRequest(project({ visibility: 'public' }), false)).toBe(true);
    expect(canAwardMergeRequest(project({ visibility: 'public' }), true)).toBe(false);
    expect(canAwardMergeRequest(project({ visibility: 'public', accessLevel: 10 }), true)).toBe(true);
  });
});

describe('pipeline abilities', () => {
  it.each([
    ['stranger of a private project', { accessLevel: 0 }, [], ['read_pipeline', 'create_pipeline']],
    // GitLab: a Guest reads a private project's pipelines while 'Public pipelines' (public_builds) is on, its default
    ['guest of a private project with public pipelines', { accessLevel: 10 }, ['read_pipeline'], ['create_pipeline', 'update_pipeline']],
    ['guest of a private project without public pipelines', { accessLevel: 10, features: { public_builds: false } }, [], ['read_pipeline', 'create_pipeline', 'update_pipeline']],
    ['stranger of a public project reads', { visibility: 'public' }, ['read_pipeline'], ['create_pipeline', 'update_pipeline', 'destroy_pipeline']],
    ['reporter reads', { accessLevel: 20 }, ['read_pipeline'], ['create_pipeline', 'update_pipeline']],
    ['developer runs', { accessLevel: 30 }, ['read_pipeline', 'create_pipeline', 'update_pipeline'], ['destroy_pipeline']],
    ['maintainer does not delete', { accessLevel: 40 }, ['update_pipeline'], ['destroy_pipeline']],
    ['owner deletes', { accessLevel: 50 }, ['destroy_pipeline'], []],
    ['archived projects are read-only', { accessLevel: 50, archived: true }, ['read_pipeline'], ['create_pipeline', 'update_pipeline', 'destroy_pipeline']],
  ] as const)('project: %s', (_name, overrides, granted, denied) => {
    const abilities = projectAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });
});

describe('environment and deployment abilities', () => {
  it.each([
    ['stranger of a private project', { accessLevel: 0 }, [], ['read_deployment', 'update_deployment']],
    // GitLab: Guests of a private project do not see its environments, even with public pipelines
    ['guest of a private project', { accessLevel: 10 }, [], ['read_deployment', 'update_deployment']],
    ['stranger of a public project reads', { visibility: 'public' }, ['read_deployment'], ['update_deployment']],
    ['public project without readable pipelines', { visibility: 'public', features: { public_builds: false } }, [], ['read_deployment']],
    ['reporter reads', { accessLevel: 20 }, ['read_deployment'], ['update_deployment']],
    ['developer deploys and stops', { accessLevel: 30 }, ['read_deployment', 'update_deployment'], []],
    ['archived projects are read-only', { accessLevel: 50, archived: true }, ['read_deployment'], ['update_deployment']],
  ] as const)('project: %s', (_name, overrides, granted, denied) => {
    const abilities = projectAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });
});

describe('label and milestone abilities', () => {
  it.each([
    ['stranger of a private project', { accessLevel: 0 }, [], ['read_label', 'admin_label']],
    ['stranger of a public project reads', { visibility: 'public' }, ['read_label', 'read_milestone'], ['admin_label', 'admin_milestone']],
    ['guest reads', { accessLevel: 10 }, ['read_label', 'read_milestone'], ['admin_label', 'admin_milestone']],
    ['reporter manages', { accessLevel: 20 }, ['admin_label', 'admin_milestone'], []],
    ['archived projects are read-only', { accessLevel: 40, archived: true }, ['read_label'], ['admin_label', 'admin_milestone']],
  ] as const)('project: %s', (_name, overrides, granted, denied) => {
    const abilities = projectAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });

  it.each([
    ['guest reads', { accessLevel: 10 }, ['read_label'], ['admin_label']],
    ['reporter manages', { accessLevel: 20 }, ['admin_label', 'admin_milestone'], []],
  ] as const)('group: %s', (_name, overrides, granted, denied) => {
    const abilities = groupAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });
});
