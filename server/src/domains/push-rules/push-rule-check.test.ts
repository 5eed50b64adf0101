import { describe, expect, it } from 'vitest';
import type { PushRule } from './push-rule.js';
import { commitRefusal, fileRefusal, refRefusal } from './push-rule-check.js';
import { pushRuleSettings } from './push-rule-settings.js';

const rule = (overrides: Partial<PushRule>): PushRule => ({
  id: 1,
  project_id: 1,
  commit_message_regex: null,
  commit_message_negative_regex: null,
  branch_name_regex: null,
  author_email_regex: null,
  file_name_regex: null,
  deny_delete_tag: false,
  member_check: false,
  prevent_secrets: false,
  commit_committer_check: false,
  commit_committer_name_check: false,
  reject_unsigned_commits: false,
  reject_non_dco_commits: false,
  max_file_size: 0,
  created_at: new Date(0),
  ...overrides,
});
const commit = { message: 'JIRA-1 work\n\nbody', authorEmail: 'a@example.com', committerEmail: 'a@example.com', signed: false };
const git = { via: 'git' as const, pusherEmails: ['a@example.com'], knownEmails: new Set(['a@example.com']) };

describe('refRefusal', () => {
  it.each([
    [{ branch_name_regex: '^feature/' }, { kind: 'branch', name: 'wip', deleting: false }, 'git', "Branch name 'wip' does not follow the pattern '^feature/'"],
    [{ branch_name_regex: '^feature/' }, { kind: 'branch', name: 'main', deleting: false }, 'git', null],
    [{ branch_name_regex: '^feature/' }, { kind: 'branch', name: 'wip', deleting: true }, 'git', null],
    [{ deny_delete_tag: true }, { kind: 'tag', name: 'v1', deleting: true }, 'git', 'You cannot delete a tag'],
    [{ deny_delete_tag: true }, { kind: 'tag', name: 'v1', deleting: true }, 'web', null],
    [{ branch_name_regex: '(' }, { kind: 'branch', name: 'x', deleting: false }, 'git', "Regular expression '(' is invalid: error parsing regexp: missing closing ): `(`"],
  ] as const)('%j %j via %s → %s', (overrides, update, via, expected) => {
    expect(refRefusal(rule(overrides), update, { defaultBranch: 'main', via })).toBe(expected);
  });

  it('runs in linear time on a pattern that makes a backtracking engine hang', () => {
    const refusal = refRefusal(rule({ branch_name_regex: '^(a+)+$' }), { kind: 'branch', name: `${'a'.repeat(50_000)}!`, deleting: false }, { defaultBranch: 'main', via: 'git' });
    expect(refusal).toContain('does not follow the pattern');
  });
});

describe('commitRefusal', () => {
  it.each([
    [{ commit_message_regex: '^JIRA-\\d+' }, {}, null],
    // multiline: ^ matches at any line of the message, as GitLab's
    [{ commit_message_regex: '^body$' }, {}, null],
    [{ commit_message_regex: '^PROJ-' }, {}, "Commit message does not follow the pattern '^PROJ-'"],
    [{ commit_message_negative_regex: 'work' }, {}, "Commit message contains the forbidden pattern 'work'"],
    [{ author_email_regex: '@corp\\.com$' }, {}, "Committer's email 'a@example.com' does not follow the pattern '@corp\\.com$'"],
    [{ author_email_regex: '@example\\.com$' }, { authorEmail: 'b@other.org' }, "Author's email 'b@other.org' does not follow the pattern '@example\\.com$'"],
    [{ commit_committer_check: true }, { committerEmail: 'x@example.com' }, "You cannot push commits for 'x@example.com'. You can only push commits if the committer email is one of your own verified emails."],
    [{ commit_committer_check: true }, { committerEmail: 'A@Example.com' }, null],
    [{ reject_unsigned_commits: true }, {}, 'Commit must be signed with a GPG key'],
    [{ reject_unsigned_commits: true }, { signed: true }, null],
    [{ member_check: true }, { authorEmail: 'stranger@example.com' }, "Author 'stranger@example.com' is not a member of team"],
    [{ member_check: true }, { committerEmail: 'stranger@example.com' }, "Committer 'stranger@example.com' is not a member of team"],
  ] as const)('%j on %j → %s', (overrides, change, expected) => {
    expect(commitRefusal(rule(overrides), { ...commit, ...change }, git)).toBe(expected);
  });

  it('does not refuse the web’s own unsigned commits', () => {
    expect(commitRefusal(rule({ reject_unsigned_commits: true }), commit, { ...git, via: 'web' })).toBeNull();
  });
});

describe('fileRefusal', () => {
  it.each([
    [{ file_name_regex: '\\.exe$' }, { path: 'a/b.exe', newFile: true, deleted: false }, 'File name a/b.exe was prohibited by the pattern "\\\\.exe$".'],
    [{ file_name_regex: '\\.exe$' }, { path: 'a/b.exe', newFile: false, deleted: false }, null],
    [{ prevent_secrets: true }, { path: 'deploy/id_ed25519', newFile: true, deleted: false }, 'File name deploy/id_ed25519 was prohibited by the pattern "id_ed\\\\d+$".'],
    [{ prevent_secrets: true }, { path: 'src/history.ts', newFile: true, deleted: false }, null],
    [{ max_file_size: 1 }, { path: 'big', newFile: false, deleted: false, size: 1024 * 1024 + 1 }, 'File "big" is larger than the allowed size of 1 MB. Use Git LFS to manage this file.'],
    [{ max_file_size: 1 }, { path: 'big', newFile: false, deleted: true, size: 5 * 1024 * 1024 }, null],
  ] as const)('%j %j → %s', (overrides, file, expected) => {
    expect(fileRefusal(rule(overrides), file)).toBe(expected);
  });
});

describe('pushRuleSettings', () => {
  it('takes GitLab’s fields: an empty pattern clears it, booleans and sizes as sent', () => {
    expect(pushRuleSettings({ commit_message_regex: '', deny_delete_tag: 'true', max_file_size: '5', unknown: 1 }, { requireOne: true })).toEqual({
      commit_message_regex: null,
      deny_delete_tag: true,
      max_file_size: 5,
    });
  });
  it.each([
    [{ file_name_regex: 'x'.repeat(512) }, { file_name_regex: ['is too long (maximum is 511 characters)'] }],
    [{ max_file_size: 'big' }, 'max_file_size is invalid'],
  ])('refuses %j', (input, body) => {
    expect(() => pushRuleSettings(input, { requireOne: true })).toThrow(expect.objectContaining({ body }));
  });
});
