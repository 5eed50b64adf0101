/**
 * GitLab's push rule checks (EE::Gitlab::Checks::PushRules): one pure function per kind, with
 * GitLab's messages, asked by the pre-receive hook for `git push` and by the API's write paths
 * (files, commits, branches, suggestions). Every pattern runs on RE2 (linear time).
 */
import type { RE2JS } from 're2js';
import { compileUntrustedRegex } from '../projects/title-regex.js';
import type { PushRule } from './push-rule.js';

export const PUSH_RULE_MESSAGES = {
  branchName: "Branch name '%{branch}' does not follow the pattern '%{regex}'",
  deleteTag: 'You cannot delete a tag',
  commitMessage: "Commit message does not follow the pattern '%{regex}'",
  commitMessageNegative: "Commit message contains the forbidden pattern '%{regex}'",
  committerEmail: "Committer's email '%{email}' does not follow the pattern '%{regex}'",
  authorEmail: "Author's email '%{email}' does not follow the pattern '%{regex}'",
  committerNotAllowed: "You cannot push commits for '%{email}'. You can only push commits if the committer email is one of your own verified emails.",
  unsigned: 'Commit must be signed with a GPG key',
  authorNotMember: "Author '%{email}' is not a member of team",
  committerNotMember: "Committer '%{email}' is not a member of team",
  fileName: 'File name %{path} was prohibited by the pattern %{regex}.',
  fileSize: 'File %{path} is larger than the allowed size of %{size} MB. Use Git LFS to manage this file.',
  invalidRegex: "Regular expression '%{regex}' is invalid: %{error}",
} as const;

const fill = (template: string, values: Record<string, string | number>) => template.replace(/%\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

/** A stored pattern that no longer compiles refuses the push, as GitLab's PushRule::MatchError does. */
class RuleError extends Error {}

function matches(source: string, text: string, multiline = false): boolean {
  const compiled = compileUntrustedRegex(source, { multiline });
  if ('error' in compiled) throw new RuleError(fill(PUSH_RULE_MESSAGES.invalidRegex, { regex: source, error: compiled.error }));
  return (compiled.pattern as RE2JS).test(text);
}

/** Runs a check; a broken stored pattern becomes its refusal. */
function guarded(check: () => string | null): string | null {
  try {
    return check();
  } catch (error) {
    if (error instanceof RuleError) return error.message;
    throw error;
  }
}

/**
 * GitLab's files_denylist (prevent_secrets): names of files that usually hold secrets (SSH and
 * TLS keys, credential stores, shell histories). A new or renamed file matching one is refused.
 */
export const SECRET_FILE_PATTERNS: readonly string[] = [
  '(ssh|config/personal|config/server)_(rsa|dsa|ed\\d+|ecdsa)',
  'id_rsa$',
  'id_dsa$',
  'id_ed\\d+$',
  'id_ecdsa$',
  '\\.(pem|key)$',
  '\\.p12$',
  '\\.pfx$',
  '\\.asc$',
  '\\.keychain$',
  '\\.kdbx?$',
  '(^|/)\\.?htpasswd$',
  '(^|/)(\\.|_)?netrc$',
  '(^|/)_?(bash_|zsh_|z|mysql_|psql_|irb_)?history$',
  '(^|/)\\.?gem/credentials$',
  '(^|/)\\.?aws/credentials$',
  '(^|/)\\.?pgpass$',
  '(^|/)\\.?s3cfg$',
  '(^|/)\\.?git-credentials$',
  '(^|/)\\.?esmtprc$',
  '(^|/)secret_token\\.rb$',
  '(^|/)carrierwave\\.rb$',
  '(^|/)omniauth\\.rb$',
  '(^|/)\\.?dockercfg$',
  '(^|/)\\.?docker/config\\.json$',
  '(^|/)\\.tugboat$',
  '(^|/)\\.?gnupg/',
];

/** The ref part: a branch name against branch_name_regex (not the default branch, not a deletion); tag deletion over git. */
export function refRefusal(
  rule: PushRule,
  update: { kind: 'branch' | 'tag'; name: string; deleting: boolean },
  context: { defaultBranch: string; via: 'git' | 'web' },
): string | null {
  return guarded(() => {
    if (update.kind === 'tag') return rule.deny_delete_tag && update.deleting && context.via === 'git' ? PUSH_RULE_MESSAGES.deleteTag : null;
    if (!rule.branch_name_regex || update.deleting || update.name === context.defaultBranch) return null;
    return matches(rule.branch_name_regex, update.name) ? null : fill(PUSH_RULE_MESSAGES.branchName, { branch: update.name, regex: rule.branch_name_regex });
  });
}

export interface CommitFacts {
  message: string;
  authorEmail: string;
  committerEmail: string;
  signed: boolean;
}

/** Does the rule look at commits themselves (GitLab's commit_validation?)? */
export function validatesCommits(rule: PushRule): boolean {
  return Boolean(
    rule.commit_message_regex ||
      rule.commit_message_negative_regex ||
      rule.author_email_regex ||
      rule.member_check ||
      rule.commit_committer_check ||
      rule.reject_unsigned_commits,
  );
}

/**
 * One commit's message, emails, committer and signature. `pusherEmails` are the pusher's own
 * emails (for commit_committer_check); `knownEmails` the emails of this instance's users (for
 * member_check, GitLab's User.existing_member?).
 */
export function commitRefusal(
  rule: PushRule,
  commit: CommitFacts,
  context: { via: 'git' | 'web'; pusherEmails: readonly string[]; knownEmails: ReadonlySet<string> },
): string | null {
  return guarded(() => {
    if (rule.commit_message_regex && !matches(rule.commit_message_regex, commit.message, true)) {
      return fill(PUSH_RULE_MESSAGES.commitMessage, { regex: rule.commit_message_regex });
    }
    if (rule.commit_message_negative_regex && matches(rule.commit_message_negative_regex, commit.message, true)) {
      return fill(PUSH_RULE_MESSAGES.commitMessageNegative, { regex: rule.commit_message_negative_regex });
    }
    if (rule.author_email_regex) {
      if (!matches(rule.author_email_regex, commit.committerEmail)) return fill(PUSH_RULE_MESSAGES.committerEmail, { email: commit.committerEmail, regex: rule.author_email_regex });
      if (!matches(rule.author_email_regex, commit.authorEmail)) return fill(PUSH_RULE_MESSAGES.authorEmail, { email: commit.authorEmail, regex: rule.author_email_regex });
    }
    if (rule.commit_committer_check && !context.pusherEmails.some((email) => email.toLowerCase() === commit.committerEmail.toLowerCase())) {
      return fill(PUSH_RULE_MESSAGES.committerNotAllowed, { email: commit.committerEmail });
    }
    // GitLab verifies the signature; Tributary refuses only a commit that carries none (the web's own commits are exempt, as in GitLab).
    if (rule.reject_unsigned_commits && context.via === 'git' && !commit.signed) return PUSH_RULE_MESSAGES.unsigned;
    if (rule.member_check) {
      if (!context.knownEmails.has(commit.authorEmail.toLowerCase())) return fill(PUSH_RULE_MESSAGES.authorNotMember, { email: commit.authorEmail });
      if (commit.authorEmail.toLowerCase() !== commit.committerEmail.toLowerCase() && !context.knownEmails.has(commit.committerEmail.toLowerCase())) {
        return fill(PUSH_RULE_MESSAGES.committerNotMember, { email: commit.committerEmail });
      }
    }
    return null;
  });
}

/** Does the rule look at the files a commit changes? */
export function validatesFiles(rule: PushRule): boolean {
  return Boolean(rule.file_name_regex || rule.prevent_secrets || rule.max_file_size > 0);
}

/** One changed file: a new or renamed file's name, then any kept file's size. `size` in bytes. */
export function fileRefusal(rule: PushRule, file: { path: string; newFile: boolean; deleted: boolean; size?: number }): string | null {
  return guarded(() => {
    if (file.newFile) {
      const patterns = [...(rule.file_name_regex ? [rule.file_name_regex] : []), ...(rule.prevent_secrets ? SECRET_FILE_PATTERNS : [])];
      const hit = patterns.find((pattern) => matches(pattern, file.path));
      if (hit !== undefined) return fill(PUSH_RULE_MESSAGES.fileName, { path: file.path, regex: JSON.stringify(hit) });
    }
    if (rule.max_file_size > 0 && !file.deleted && file.size !== undefined && file.size > rule.max_file_size * 1024 * 1024) {
      return fill(PUSH_RULE_MESSAGES.fileSize, { path: JSON.stringify(file.path), size: rule.max_file_size });
    }
    return null;
  });
}
