/**
 * The approvals API, as GitLab's (ee/lib/api/merge_request_approvals.rb, project_approval_rules.rb,
 * merge_request_approval_rules.rb, project_approval_settings, merge_request_approval_settings.rb):
 * project settings and rules, a merge request's approvals, state and rules, approve, unapprove,
 * reset, group and instance settings, reviewers with their states.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../../auth/actor.js';
import type { ApprovalView, MergeRequestApprovalRule, ProjectApprovalRule } from '../../../domains/approvals/index.js';
import type { RuleInput } from '../../../domains/approvals/approval-rules.service.js';
import { signedIn, type RestContext } from '../context.js';
import { approvalSettingEntity, approvalStateEntity, mergeRequestApprovalRuleEntity, mergeRequestApprovalsEntity, projectApprovalRuleEntity, projectApprovalSettingsEntity } from '../entities/approvals.js';
import { userBasic } from '../entities/users.js';
import { Bool, Enum, Id, Input, Int, List, NamespacedRef, Optional, PathId, routes, Str, type Static } from '../input/route-kit.js';
import { MergeRequestPath } from './merge-requests/input.js';

const ProjectPath = { id: NamespacedRef() };
const RulePath = { approval_rule_id: PathId('Approval Rule', { minimum: 1 }) };

const RuleFields = {
  name: Optional(Str()),
  approvals_required: Optional(Int({ minimum: 0 })),
  user_ids: Optional(List(Id())),
  group_ids: Optional(List(Id())),
  usernames: Optional(List(Str())),
};
const ProjectRuleFields = {
  ...RuleFields,
  rule_type: Optional(Enum(['regular', 'any_approver', 'report_approver'] as const)),
  report_type: Optional(Enum(['scan_finding', 'license_scanning', 'code_coverage', 'any_merge_request'] as const)),
  protected_branch_ids: Optional(List(Id())),
  applies_to_all_protected_branches: Optional(Bool()),
};

const SettingFields = {
  allow_author_approval: Optional(Bool()),
  allow_committer_approval: Optional(Bool()),
  allow_overrides_to_approver_list_per_merge_request: Optional(Bool()),
  retain_approvals_on_push: Optional(Bool()),
  selective_code_owner_removals: Optional(Bool()),
  require_password_to_approve: Optional(Bool()),
  require_reauthentication_to_approve: Optional(Bool()),
};

function ruleInput(params: Partial<Static<ReturnType<typeof Input<typeof ProjectRuleFields>>>> & { approval_project_rule_id?: number }): RuleInput {
  return {
    name: params.name,
    approvalsRequired: params.approvals_required,
    ruleType: params.rule_type,
    reportType: params.report_type,
    userIds: params.user_ids,
    usernames: params.usernames,
    groupIds: params.group_ids,
    protectedBranchIds: params.protected_branch_ids,
    appliesToAllProtectedBranches: params.applies_to_all_protected_branches,
    approvalProjectRuleId: params.approval_project_rule_id,
  };
}

/** GitLab mirrors require_reauthentication_to_approve and require_password_to_approve. */
function settingChanges(params: Static<ReturnType<typeof Input<typeof SettingFields>>>) {
  const { require_reauthentication_to_approve: reauth, ...rest } = params;
  return { ...rest, require_password_to_approve: reauth ?? rest.require_password_to_approve };
}

export function approvalRoutes(app: FastifyInstance, ctx: RestContext<'approvalLookups' | 'approvalRules' | 'approvalSettings' | 'approvals' | 'approvalsRepository' | 'reviews'>): void {
  const r = routes(app);
  const { approvals, approvalRules, approvalSettings, reviews } = ctx.services;
  const ref = (request: FastifyRequest, params: { id: string; iid: number }): [Actor, string, number] => [request.actor, params.id, params.iid];

  async function renderProjectRules(actor: Actor, projectId: number, rules: ProjectApprovalRule[]) {
    const lookups = await ctx.services.approvalLookups(actor, { userIds: rules.flatMap((rule) => rule.user_ids), groupIds: rules.flatMap((rule) => rule.group_ids), projectId });
    return rules.map((rule) => projectApprovalRuleEntity(rule, lookups, ctx.urls));
  }
  async function renderMergeRequestRules(actor: Actor, projectId: number, rules: MergeRequestApprovalRule[]) {
    const lookups = await ctx.services.approvalLookups(actor, { userIds: rules.flatMap((rule) => rule.user_ids), groupIds: rules.flatMap((rule) => rule.group_ids), projectId });
    const sources = new Map((await ctx.services.approvalsRepository.projectRules(projectId)).map((rule) => [rule.id, rule]));
    return rules.map((rule) => mergeRequestApprovalRuleEntity(rule, sources, lookups, ctx.urls));
  }
  async function viewLookups(actor: Actor, view: ApprovalView) {
    const members = [...view.ruleMembers.values()];
    const userIds = [...view.state.approvedByIds, ...view.state.suggestedApproverIds, ...view.state.rules.flatMap((rule) => [...rule.approverIds, ...rule.approvedByIds]), ...members.flatMap((m) => m.userIds)];
    return ctx.services.approvalLookups(actor, { userIds, groupIds: members.flatMap((m) => m.groupIds), projectId: view.opened.project.id });
  }
  const renderApprovals = async (actor: Actor, view: ApprovalView) => mergeRequestApprovalsEntity(view, await viewLookups(actor, view), ctx.urls);

  // Project settings (GitLab's ProjectApprovals: the effective values).
  r.get('/projects/:id/approvals', Input(ProjectPath), async ({ id }, request) => projectApprovalSettingsEntity((await approvalSettings.project(request.actor, id)).settings));
  r.post(
    '/projects/:id/approvals',
    Input({
      ...ProjectPath,
      approvals_before_merge: Optional(Int({ minimum: 0 })),
      reset_approvals_on_push: Optional(Bool()),
      selective_code_owner_removals: Optional(Bool()),
      disable_overriding_approvers_per_merge_request: Optional(Bool()),
      merge_requests_author_approval: Optional(Bool()),
      merge_requests_disable_committers_approval: Optional(Bool()),
      require_password_to_approve: Optional(Bool()),
      require_reauthentication_to_approve: Optional(Bool()),
    }),
    async (params, request, reply) => {
      signedIn(request);
      const not = (value: boolean | undefined) => (value === undefined ? undefined : !value);
      const { settings } = await approvalSettings.updateProject(request.actor, params.id, {
        approvalsBeforeMerge: params.approvals_before_merge,
        retain_approvals_on_push: not(params.reset_approvals_on_push),
        selective_code_owner_removals: params.selective_code_owner_removals,
        allow_overrides_to_approver_list_per_merge_request: not(params.disable_overriding_approvers_per_merge_request),
        allow_author_approval: params.merge_requests_author_approval,
        allow_committer_approval: not(params.merge_requests_disable_committers_approval),
        require_password_to_approve: params.require_reauthentication_to_approve ?? params.require_password_to_approve,
      });
      return reply.status(201).send(projectApprovalSettingsEntity(settings));
    },
  );

  // The project's and group's merge_request_approval_setting (value, lock, origin).
  r.get('/projects/:id/merge_request_approval_setting', Input(ProjectPath), async ({ id }, request) => {
    signedIn(request);
    await approvalSettings.projectSetting(request.actor, id, true);
    return approvalSettingEntity((await approvalSettings.project(request.actor, id)).resolved);
  });
  r.put('/projects/:id/merge_request_approval_setting', Input({ ...ProjectPath, ...SettingFields }), async ({ id, ...params }, request) => {
    signedIn(request);
    return approvalSettingEntity((await approvalSettings.updateProject(request.actor, id, settingChanges(params))).resolved);
  });
  r.get('/groups/:id/merge_request_approval_setting', Input({ id: NamespacedRef() }), async ({ id }, request) => {
    signedIn(request);
    return approvalSettingEntity(await approvalSettings.group(request.actor, id));
  });
  r.put('/groups/:id/merge_request_approval_setting', Input({ id: NamespacedRef(), ...SettingFields }), async ({ id, ...params }, request) => {
    signedIn(request);
    return approvalSettingEntity(await approvalSettings.updateGroup(request.actor, id, settingChanges(params)));
  });

  // The instance's restrictions are GitLab's application settings of the same names: routes/application-settings.ts.

  // Project approval rules.
  r.get('/projects/:id/approval_rules', Input(ProjectPath), async ({ id }, request) => {
    const { project, rules } = await approvalRules.listProjectRules(request.actor, id);
    return renderProjectRules(request.actor, project.id, rules);
  });
  r.get('/projects/:id/approval_rules/:approval_rule_id', Input({ ...ProjectPath, ...RulePath }), async (params, request) => {
    const { project, rule } = await approvalRules.projectRule(request.actor, params.id, params.approval_rule_id);
    return (await renderProjectRules(request.actor, project.id, [rule]))[0];
  });
  r.post('/projects/:id/approval_rules', Input({ ...ProjectPath, ...ProjectRuleFields }), async (params, request, reply) => {
    signedIn(request);
    const { project, rule } = await approvalRules.createProjectRule(request.actor, params.id, ruleInput(params));
    return reply.status(201).send((await renderProjectRules(request.actor, project.id, [rule]))[0]);
  });
  r.put('/projects/:id/approval_rules/:approval_rule_id', Input({ ...ProjectPath, ...RulePath, ...ProjectRuleFields }), async (params, request) => {
    signedIn(request);
    const { project, rule } = await approvalRules.updateProjectRule(request.actor, params.id, params.approval_rule_id, ruleInput(params));
    return (await renderProjectRules(request.actor, project.id, [rule]))[0];
  });
  r.delete('/projects/:id/approval_rules/:approval_rule_id', Input({ ...ProjectPath, ...RulePath }), async (params, request, reply) => {
    signedIn(request);
    await approvalRules.deleteProjectRule(request.actor, params.id, params.approval_rule_id);
    return reply.status(204).send();
  });

  // A merge request's approvals.
  const base = '/projects/:id/merge_requests/:iid';
  r.get(`${base}/approvals`, Input(MergeRequestPath), async (params, request) => renderApprovals(request.actor, await approvals.state(...ref(request, params))));
  r.get(`${base}/approval_state`, Input(MergeRequestPath), async (params, request) => {
    const view = await approvals.state(...ref(request, params));
    return approvalStateEntity(view, await viewLookups(request.actor, view), ctx.urls);
  });
  r.post(
    `${base}/approve`,
    Input({ ...MergeRequestPath, sha: Optional(Str()), approval_password: Optional(Str()), publish_review: Optional(Bool()) }),
    async (params, request, reply) => {
      signedIn(request);
      const view = await approvals.approve(ref(request, params), { sha: params.sha, approvalPassword: params.approval_password });
      return reply.status(201).send(await renderApprovals(request.actor, view));
    },
  );
  r.post(`${base}/unapprove`, Input(MergeRequestPath), async (params, request, reply) => {
    signedIn(request);
    return reply.status(201).send(await renderApprovals(request.actor, await approvals.unapprove(ref(request, params))));
  });
  r.put(`${base}/reset_approvals`, Input(MergeRequestPath), async (params, request, reply) => {
    signedIn(request);
    await approvals.resetApprovals(ref(request, params));
    return reply.status(202).send();
  });

  // A merge request's own rules.
  r.get(`${base}/approval_rules`, Input(MergeRequestPath), async (params, request) => {
    const { opened, rules } = await approvalRules.listMergeRequestRules(...ref(request, params));
    return renderMergeRequestRules(request.actor, opened.project.id, rules);
  });
  r.get(`${base}/approval_rules/:approval_rule_id`, Input({ ...MergeRequestPath, ...RulePath }), async (params, request) => {
    const { opened, rule } = await approvalRules.mergeRequestRule(...ref(request, params), params.approval_rule_id);
    return (await renderMergeRequestRules(request.actor, opened.project.id, [rule]))[0];
  });
  r.post(`${base}/approval_rules`, Input({ ...MergeRequestPath, ...RuleFields, approval_project_rule_id: Optional(Id()) }), async (params, request, reply) => {
    signedIn(request);
    const { opened, rule } = await approvalRules.createMergeRequestRule(...ref(request, params), ruleInput(params));
    return reply.status(201).send((await renderMergeRequestRules(request.actor, opened.project.id, [rule]))[0]);
  });
  r.put(`${base}/approval_rules/:approval_rule_id`, Input({ ...MergeRequestPath, ...RulePath, ...RuleFields, remove_hidden_groups: Optional(Bool()) }), async (params, request) => {
    signedIn(request);
    const { opened, rule } = await approvalRules.updateMergeRequestRule(...ref(request, params), params.approval_rule_id, ruleInput(params));
    return (await renderMergeRequestRules(request.actor, opened.project.id, [rule]))[0];
  });
  r.delete(`${base}/approval_rules/:approval_rule_id`, Input({ ...MergeRequestPath, ...RulePath }), async (params, request, reply) => {
    signedIn(request);
    await approvalRules.deleteMergeRequestRule(...ref(request, params), params.approval_rule_id);
    return reply.status(204).send();
  });

  // Reviewers with their review states (GitLab's MergeRequestReviewer entity).
  r.get(`${base}/reviewers`, Input(MergeRequestPath), async (params, request) => {
    const { reviewers: list } = await reviews.reviewers(...ref(request, params));
    return list.map((reviewer) => ({ user: userBasic(reviewer.user, ctx.urls), state: reviewer.state, created_at: reviewer.created_at }));
  });
}
