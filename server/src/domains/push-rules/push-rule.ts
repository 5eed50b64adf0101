/** A project's push rule (GitLab's PushRule): at most one per project. */
export interface PushRule {
  id: number;
  project_id: number;
  commit_message_regex: string | null;
  commit_message_negative_regex: string | null;
  branch_name_regex: string | null;
  author_email_regex: string | null;
  file_name_regex: string | null;
  deny_delete_tag: boolean;
  member_check: boolean;
  prevent_secrets: boolean;
  commit_committer_check: boolean;
  commit_committer_name_check: boolean;
  reject_unsigned_commits: boolean;
  reject_non_dco_commits: boolean;
  /** in MB; 0 is no limit */
  max_file_size: number;
  created_at: Date;
}

export const PUSH_RULE_REGEX_FIELDS = ['commit_message_regex', 'commit_message_negative_regex', 'branch_name_regex', 'author_email_regex', 'file_name_regex'] as const;
export const PUSH_RULE_BOOLEAN_FIELDS = [
  'deny_delete_tag',
  'member_check',
  'prevent_secrets',
  'commit_committer_check',
  'commit_committer_name_check',
  'reject_unsigned_commits',
  'reject_non_dco_commits',
] as const;
export const PUSH_RULE_FIELDS = [...PUSH_RULE_REGEX_FIELDS, ...PUSH_RULE_BOOLEAN_FIELDS, 'max_file_size'] as const;
export type PushRuleField = (typeof PUSH_RULE_FIELDS)[number];
export type PushRuleSettings = Partial<Pick<PushRule, PushRuleField>>;
