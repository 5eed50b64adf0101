import type { PushRule } from '../../../domains/push-rules/push-rule.js';

/** GitLab's ProjectPushRule entity (GET /projects/:id/push_rule). */
export function pushRuleEntity(rule: PushRule) {
  return {
    id: rule.id,
    project_id: rule.project_id,
    created_at: rule.created_at.toISOString(),
    commit_message_regex: rule.commit_message_regex,
    commit_message_negative_regex: rule.commit_message_negative_regex,
    branch_name_regex: rule.branch_name_regex,
    deny_delete_tag: rule.deny_delete_tag,
    member_check: rule.member_check,
    prevent_secrets: rule.prevent_secrets,
    author_email_regex: rule.author_email_regex,
    file_name_regex: rule.file_name_regex,
    max_file_size: rule.max_file_size,
    commit_committer_check: rule.commit_committer_check,
    commit_committer_name_check: rule.commit_committer_name_check,
    reject_unsigned_commits: rule.reject_unsigned_commits,
    reject_non_dco_commits: rule.reject_non_dco_commits,
  };
}
