/**
 * Resolvers of the approval fields and mutations (schema.ts). The state is the approvals
 * service's view, read once per merge request and request; the mutations call the service the
 * REST routes call, so GitLab's rules (sha, eligibility, 304 for "already approved") are theirs.
 */
import type { ProjectAction } from '../../../auth/permissions.js';
import type { ApprovalView, EvaluatedRule } from '../../../domains/approvals/index.js';
import type { ApprovalsService } from '../../../domains/approvals/approvals.service.js';
import type { User } from '../../../domains/users/user.js';
import { NotModifiedError } from '../../../platform/errors.js';
import { mutation } from '../editor/errors.js';
import { echo, iidOf, nodeOf, writer, type MergeRequestInput, type Mutation } from '../editor/mutations.js';
import { globalId } from '../global-id.js';
import type { GraphqlContext } from '../resolvers.js';
import type { MergeRequestNode, RequestScope } from '../widget/request-scope.js';

export interface ApprovalsGraphqlDeps {
  approvals: Pick<ApprovalsService, 'view' | 'approve' | 'unapprove' | 'settingsOf'>;
}

type RuleNode = { rule: EvaluatedRule; view: ApprovalView };
type Resolver<P> = (parent: P, args: Record<string, never>, context: GraphqlContext) => unknown;

const RULE_TYPES = { regular: 'REGULAR', code_owner: 'CODE_OWNER', report_approver: 'REPORT_APPROVER', any_approver: 'ANY_APPROVER', fallback: 'ANY_APPROVER' } as const;

export function createApprovalResolvers(deps: ApprovalsGraphqlDeps) {
  const views = new WeakMap<RequestScope, Map<number, Promise<ApprovalView>>>();
  function viewOf(node: MergeRequestNode, ctx: GraphqlContext): Promise<ApprovalView> {
    let perScope = views.get(ctx.scope);
    if (!perScope) views.set(ctx.scope, (perScope = new Map()));
    let found = perScope.get(node.mergeRequest.id);
    if (!found) {
      found = ctx.scope.abilities(node.project).then((abilities) => deps.approvals.view({ ...node, abilities: abilities as Set<ProjectAction> }, ctx.scope.actor));
      perScope.set(node.mergeRequest.id, found);
    }
    return found;
  }
  const usersOf = async (ids: readonly number[], ctx: GraphqlContext): Promise<User[]> => (await Promise.all(ids.map((id) => ctx.scope.user(id)))).filter((user): user is User => user !== null);
  const connection = async (ids: readonly number[], ctx: GraphqlContext) => {
    const nodes = await usersOf(ids, ctx);
    return { count: nodes.length, nodes };
  };

  const MergeRequest: Record<string, Resolver<MergeRequestNode>> = {
    approved: async (node, _, ctx) => (await viewOf(node, ctx)).state.approved,
    approvalsLeft: async (node, _, ctx) => (await viewOf(node, ctx)).state.approvalsLeft,
    approvalsRequired: async (node, _, ctx) => (await viewOf(node, ctx)).state.approvalsRequired,
    approvedBy: async (node, _, ctx) => connection((await viewOf(node, ctx)).state.approvedByIds, ctx),
    committers: async (node, _, ctx) => connection((await viewOf(node, ctx)).committerIds, ctx),
    approvalState: (node, _, ctx) => viewOf(node, ctx),
  };

  const ruleNodes = (view: ApprovalView, rules: EvaluatedRule[]): RuleNode[] => rules.map((rule) => ({ rule, view }));

  const MergeRequestApprovalState: Record<string, Resolver<ApprovalView>> = {
    approvalRulesOverwritten: (view) => view.overwritten,
    invalidApproversRules: (view) => ruleNodes(view, view.state.invalidRules),
    rules: (view) => ruleNodes(view, view.state.rules),
    suggestedApprovers: (view, _, ctx) => connection(view.state.suggestedApproverIds, ctx),
    // security policies do not exist here: none overrides the settings
    policiesOverridingApprovalSettings: () => [],
  };

  const ApprovalRule: Record<string, Resolver<RuleNode>> = {
    id: ({ rule, view }) => (rule.id === null ? null : globalId(view.overwritten ? 'ApprovalMergeRequestRule' : 'ApprovalProjectRule', rule.id)),
    name: ({ rule }) => rule.name,
    type: ({ rule }) => RULE_TYPES[rule.ruleType],
    section: ({ rule }) => rule.section,
    approved: ({ rule }) => rule.approved,
    approvalsRequired: ({ rule }) => rule.approvalsRequired,
    approvedBy: ({ rule }, _, ctx) => connection(rule.approvedByIds, ctx),
    // comments by approvers are not counted yet
    commentedBy: () => ({ count: 0, nodes: [] }),
    eligibleApprovers: ({ rule }, _, ctx) => usersOf(rule.approverIds, ctx),
    users: ({ rule, view }, _, ctx) => connection(rule.id === null ? [] : (view.ruleMembers.get(rule.id)?.userIds ?? []), ctx),
    containsHiddenGroups: ({ rule }) => rule.containsHiddenGroups,
    invalid: ({ rule }) => rule.invalid,
    allowMergeWhenInvalid: ({ rule }) => rule.allowMergeWhenInvalid,
    fallback: ({ rule }) => rule.ruleType === 'fallback',
    overridden: ({ view }) => view.overwritten,
    reportType: ({ rule }) => rule.reportType?.toUpperCase() ?? null,
    scanResultPolicies: () => [],
  };

  const MergeRequestPermissions: Record<string, Resolver<MergeRequestNode>> = {
    canApprove: async (node, _, ctx) => (await viewOf(node, ctx)).viewerCanApprove,
  };

  const Project = {
    mergeRequestsDisableCommittersApproval: async (project: MergeRequestNode['project']) => !(await deps.approvals.settingsOf(project)).allowCommitterApproval,
  };

  const Mutation = {
    mergeRequestApprove: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const iid = iidOf(input.iid);
      const result = await mutation(async () => {
        try {
          const view = await deps.approvals.approve([actor, input.projectPath, iid], { sha: input.sha ?? undefined });
          return { mergeRequest: nodeOf(view.opened) };
        } catch (error) {
          // GitLab's mutation answers an approval already given with the merge request
          if (error instanceof NotModifiedError) return { mergeRequest: await mergeRequestNode(ctx, input.projectPath, iid) };
          throw error;
        }
      });
      return { ...echo(input), ...result };
    }) satisfies Mutation<MergeRequestInput & { sha?: string | null }>,

    mergeRequestUnapprove: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const iid = iidOf(input.iid);
      const result = await mutation(async () => {
        try {
          return { mergeRequest: nodeOf((await deps.approvals.unapprove([actor, input.projectPath, iid])).opened) };
        } catch (error) {
          if (error instanceof NotModifiedError) return { mergeRequest: await mergeRequestNode(ctx, input.projectPath, iid) };
          throw error;
        }
      });
      return { ...echo(input), ...result };
    }) satisfies Mutation<MergeRequestInput>,
  };

  async function mergeRequestNode(ctx: GraphqlContext, projectPath: string, iid: number) {
    const project = await ctx.scope.project(projectPath);
    return project ? ctx.scope.mergeRequest(project, iid) : null;
  }

  return { MergeRequest, MergeRequestApprovalState, ApprovalRule, MergeRequestPermissions, Project, Mutation };
}

type ResolverMap = Record<string, object>;

export function withApprovals<R extends ResolverMap>(base: R, deps: ApprovalsGraphqlDeps): ResolverMap {
  const approvals = createApprovalResolvers(deps);
  return {
    ...base,
    MergeRequest: { ...(base.MergeRequest ?? {}), ...approvals.MergeRequest },
    MergeRequestPermissions: { ...(base.MergeRequestPermissions ?? {}), ...approvals.MergeRequestPermissions },
    MergeRequestApprovalState: approvals.MergeRequestApprovalState,
    ApprovalRule: approvals.ApprovalRule,
    Project: { ...(base.Project ?? {}), ...approvals.Project },
    Mutation: { ...(base.Mutation ?? {}), ...approvals.Mutation },
  };
}
