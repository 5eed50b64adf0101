/**
 * GitLab's approval entities (ee/lib/ee/api/entities/: ApprovalRule, MergeRequestApprovalRule,
 * MergeRequestApprovalStateRule, ApprovalState (MergeRequestApprovals), ProjectApprovalSettings,
 * MergeRequestApprovalSetting). Pure over what the route looked up.
 */
import type { ApprovalView, EvaluatedRule, MergeRequestApprovalRule, ProjectApprovalRule, ResolvedApprovalSettings } from '../../../domains/approvals/index.js';
import type { EffectiveApprovalSettings } from '../../../domains/approvals/approval-rule.js';
import type { Namespace } from '../../../domains/namespaces/namespace.js';
import type { User } from '../../../domains/users/user.js';
import { group } from './namespaces.js';
import { userBasic, type UrlBuilder } from './users.js';

export interface ApprovalLookups {
  users: Map<number, User>;
  groups: Map<number, Namespace>;
  /** group id → its members' ids (a rule's eligible approvers include them) */
  groupMembers: Map<number, number[]>;
  protectedBranches: Map<number, { id: number; name: string; code_owner_approval_required: boolean }>;
  /** groups the caller may not see (GitLab's contains_hidden_groups) */
  hiddenGroups: Set<number>;
}

const usersOf = (ids: readonly number[], lookups: ApprovalLookups, urls: UrlBuilder) =>
  ids.flatMap((id) => {
    const user = lookups.users.get(id);
    return user ? [userBasic(user, urls)] : [];
  });

function people(rule: { user_ids: number[]; group_ids: number[] }, lookups: ApprovalLookups, urls: UrlBuilder) {
  const visibleGroups = rule.group_ids.filter((id) => !lookups.hiddenGroups.has(id));
  const eligible = [...new Set([...rule.user_ids, ...visibleGroups.flatMap((id) => lookups.groupMembers.get(id) ?? [])])];
  return {
    eligible_approvers: usersOf(eligible, lookups, urls),
    users: usersOf(rule.user_ids, lookups, urls),
    groups: visibleGroups.flatMap((id) => {
      const found = lookups.groups.get(id);
      return found ? [group(found, urls)] : [];
    }),
    contains_hidden_groups: rule.group_ids.some((id) => lookups.hiddenGroups.has(id)),
  };
}

function protectedBranch(branch: { id: number; name: string; code_owner_approval_required: boolean }) {
  return { id: branch.id, name: branch.name, push_access_levels: [], merge_access_levels: [], unprotect_access_levels: [], allow_force_push: false, code_owner_approval_required: branch.code_owner_approval_required, inherited: false };
}

/** GitLab's ApprovalRule entity for a project's rule. */
export function projectApprovalRuleEntity(rule: ProjectApprovalRule, lookups: ApprovalLookups, urls: UrlBuilder) {
  const { eligible_approvers, users, groups, contains_hidden_groups } = people(rule, lookups, urls);
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.rule_type,
    report_type: rule.report_type,
    eligible_approvers,
    approvals_required: rule.approvals_required,
    users,
    groups,
    contains_hidden_groups,
    protected_branches: rule.protected_branch_ids.flatMap((id) => {
      const branch = lookups.protectedBranches.get(id);
      return branch ? [protectedBranch(branch)] : [];
    }),
    applies_to_all_protected_branches: rule.applies_to_all_protected_branches,
  };
}

/** GitLab's MergeRequestApprovalRule entity. */
export function mergeRequestApprovalRuleEntity(rule: MergeRequestApprovalRule, sources: Map<number, ProjectApprovalRule>, lookups: ApprovalLookups, urls: UrlBuilder) {
  const source = rule.approval_project_rule_id === null ? undefined : sources.get(rule.approval_project_rule_id);
  const overridden = source !== undefined && (source.name !== rule.name || source.approvals_required !== rule.approvals_required || source.user_ids.join() !== rule.user_ids.join() || source.group_ids.join() !== rule.group_ids.join());
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.rule_type,
    report_type: rule.report_type,
    ...people(rule, lookups, urls),
    approvals_required: rule.approvals_required,
    source_rule: source ? { approvals_required: source.approvals_required } : null,
    section: rule.section,
    overridden,
  };
}

/** One rule of GET …/approval_state (MergeRequestApprovalStateRule). */
function stateRuleEntity(rule: EvaluatedRule, view: ApprovalView, lookups: ApprovalLookups, urls: UrlBuilder) {
  const members = rule.id === null ? { userIds: [], groupIds: [] } : (view.ruleMembers.get(rule.id) ?? { userIds: [], groupIds: [] });
  const base = people({ user_ids: members.userIds, group_ids: members.groupIds }, lookups, urls);
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.ruleType === 'fallback' ? 'any_approver' : rule.ruleType,
    report_type: rule.reportType,
    eligible_approvers: usersOf(rule.approverIds, lookups, urls),
    approvals_required: rule.approvalsRequired,
    users: base.users,
    groups: base.groups,
    contains_hidden_groups: rule.containsHiddenGroups,
    section: rule.section,
    source_rule: null,
    overridden: view.overwritten,
    code_owner: rule.ruleType === 'code_owner',
    approved_by: usersOf(rule.approvedByIds, lookups, urls),
    approved: rule.approved,
  };
}

export function approvalStateEntity(view: ApprovalView, lookups: ApprovalLookups, urls: UrlBuilder) {
  return { approval_rules_overwritten: view.overwritten, rules: view.state.rules.map((rule) => stateRuleEntity(rule, view, lookups, urls)) };
}

/** GET …/merge_requests/:iid/approvals (GitLab's ApprovalState entity). */
export function mergeRequestApprovalsEntity(view: ApprovalView, lookups: ApprovalLookups, urls: UrlBuilder) {
  const mr = view.opened.mergeRequest;
  const rulesLeft = view.state.rules.filter((rule) => !rule.approved);
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.target_project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    merge_status: mr.merge_status,
    approved: view.state.approved,
    approvals_required: view.state.approvalsRequired,
    approvals_left: view.state.approvalsLeft,
    require_password_to_approve: view.settings.requirePasswordToApprove,
    approved_by: view.state.approvedByIds.flatMap((id) => {
      const user = lookups.users.get(id);
      return user ? [{ user: userBasic(user, urls) }] : [];
    }),
    suggested_approvers: usersOf(view.state.suggestedApproverIds, lookups, urls),
    approvers: [],
    approver_groups: [],
    user_has_approved: view.viewerApproved,
    user_can_approve: view.viewerCanApprove,
    approval_rules_left: rulesLeft.map((rule) => ({ id: rule.id, name: rule.name, rule_type: rule.ruleType === 'fallback' ? 'any_approver' : rule.ruleType })),
    has_approval_rules: view.state.rules.length > 0,
    merge_request_approvers_available: true,
    multiple_approval_rules_available: true,
    invalid_approvers_rules: view.state.invalidRules.map((rule) => ({ id: rule.id, name: rule.name, rule_type: rule.ruleType })),
  };
}

/** GET/POST /projects/:id/approvals (GitLab's ProjectApprovalSettings, the effective values). */
export function projectApprovalSettingsEntity(settings: EffectiveApprovalSettings) {
  return {
    approvers: [],
    approver_groups: [],
    approvals_before_merge: settings.approvalsBeforeMerge,
    reset_approvals_on_push: !settings.retainApprovalsOnPush,
    selective_code_owner_removals: settings.selectiveCodeOwnerRemovals,
    disable_overriding_approvers_per_merge_request: !settings.allowOverridesToApproverListPerMergeRequest,
    merge_requests_author_approval: settings.allowAuthorApproval,
    merge_requests_disable_committers_approval: !settings.allowCommitterApproval,
    require_password_to_approve: settings.requirePasswordToApprove,
    require_reauthentication_to_approve: settings.requirePasswordToApprove,
  };
}

/** GitLab's MergeRequestApprovalSetting entity: each setting's value, lock and origin. */
export function approvalSettingEntity(resolved: ResolvedApprovalSettings) {
  // locked_by_group_id (beyond GitLab) names the locking group, for the page's "configured in {groupName}"
  const one = (key: keyof ResolvedApprovalSettings) => {
    const { value, locked, inherited_from, locked_by_group_id } = resolved[key];
    return { value, locked, inherited_from, ...(locked_by_group_id ? { locked_by_group_id } : {}) };
  };
  return {
    allow_author_approval: one('allow_author_approval'),
    allow_committer_approval: one('allow_committer_approval'),
    allow_overrides_to_approver_list_per_merge_request: one('allow_overrides_to_approver_list_per_merge_request'),
    retain_approvals_on_push: one('retain_approvals_on_push'),
    selective_code_owner_removals: one('selective_code_owner_removals'),
    require_password_to_approve: one('require_password_to_approve'),
    require_reauthentication_to_approve: one('require_password_to_approve'),
  };
}
