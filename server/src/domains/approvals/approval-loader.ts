/**
 * Reads everything the approval state of one merge request depends on and evaluates it with the
 * pure rules (approval-state.ts): the settings through their cascade, the rules that apply (the
 * merge request's own when it overrides the project's, else the project's rules for its target
 * branch, then code owner rules, else GitLab's fallback rule), who may approve, who approved,
 * the author and the committers.
 */
import { listCommits } from '../../git/index.js';
import type { Queryable } from '../../platform/db/database.js';
import type { Project } from '../projects/project.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import { matchesBranchPattern } from '../protected-branches/branch-pattern.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import type { Approval, EffectiveApprovalSettings, MergeRequestApprovalRule, ProjectApprovalRule } from './approval-rule.js';
import { APPROVAL_SETTING_KEYS, effectiveSettings, resolveApprovalSettings, type ResolvedApprovalSettings, type StoredApprovalSettings } from './approval-settings.js';
import { evaluateApprovalState, type ApprovalFacts, type ApprovalStateResult, type RuleFacts } from './approval-state.js';
import type { ApprovalsRepository } from './approvals.repository.js';
import type { CodeOwners } from './code-owners.js';

/** Commits read to find a merge request's committers (GitLab also stops at a limit). */
const COMMITTER_COMMITS_LIMIT = 1000;
/** Commit ranges whose committer emails are kept (the most recently added). */
const MAX_CACHED_RANGES = 1000;

const EMPTY: StoredApprovalSettings = Object.fromEntries(APPROVAL_SETTING_KEYS.map((key) => [key, null])) as StoredApprovalSettings;

export interface LoadedApprovalState {
  settings: EffectiveApprovalSettings;
  resolved: ResolvedApprovalSettings;
  overwritten: boolean;
  facts: ApprovalFacts;
  state: ApprovalStateResult;
  approvals: Approval[];
  /** the rules' designated users and groups, by rule id (for the REST entities) */
  ruleMembers: Map<number, { userIds: number[]; groupIds: number[] }>;
  /** the merge request's committers (users), when they were read */
  committerIds: number[];
}

export function createApprovalLoader(deps: { repository: ApprovalsRepository; storage: Pick<RepositoryStorage, 'pathFor'>; codeOwners: CodeOwners }) {
  const { repository } = deps;

  async function settingsOf(project: Project, tx?: Queryable): Promise<{ settings: EffectiveApprovalSettings; resolved: ResolvedApprovalSettings }> {
    const groupIds = project.namespace_kind === 'group' ? project.namespace_traversal_ids.map(Number) : [];
    const [instance, stored] = await Promise.all([repository.instanceSettings(tx), repository.storedSettings({ groupIds, projectId: project.id }, tx)]);
    const resolved = resolveApprovalSettings({ instance, groups: groupIds.map((id) => ({ id, settings: stored.groups.get(id) ?? EMPTY })), own: stored.project });
    return { resolved, settings: effectiveSettings(resolved, stored.project.approvals_before_merge) };
  }

  /** Does a project rule apply to merge requests into `branch`? (GitLab's applicable_to_branch?) */
  function appliesTo(rule: ProjectApprovalRule, branch: string, protectedBranches: Array<{ id: number; name: string }>): boolean {
    if (!rule.applies_to_all_protected_branches && rule.protected_branch_ids.length === 0) return true;
    const matching = protectedBranches.filter((protection) => matchesBranchPattern(protection.name, branch));
    if (rule.applies_to_all_protected_branches) return matching.length > 0;
    return matching.some((protection) => rule.protected_branch_ids.includes(protection.id));
  }

  /**
   * Committer emails per commit range: a range between two commit ids never changes, so the
   * approval state of an unchanged merge request reads git once, not on every evaluation.
   */
  const committerEmails = new Map<string, Promise<string[]>>();
  function emailsOf(projectId: number, range: string): Promise<string[]> {
    const key = `${projectId}:${range}`;
    let emails = committerEmails.get(key);
    if (!emails) {
      emails = listCommits(deps.storage.pathFor(projectId), { ref: range, limit: COMMITTER_COMMITS_LIMIT }).then((page) => [...new Set((page?.commits ?? []).map((commit) => commit.committer_email))]);
      emails.catch(() => committerEmails.delete(key));
      if (committerEmails.size >= MAX_CACHED_RANGES) committerEmails.delete(committerEmails.keys().next().value!);
      committerEmails.set(key, emails);
    }
    return emails;
  }

  async function committersOf(mergeRequest: MergeRequest, tx?: Queryable): Promise<number[]> {
    const [latest] = await repository.latestVersions(mergeRequest.id, tx);
    if (!latest) return [];
    const emails = await emailsOf(mergeRequest.target_project_id, `${latest.start_commit_sha}..${latest.head_commit_sha}`);
    return repository.userIdsByEmails(emails, tx);
  }

  /** The rules in force, as stored rows to evaluate (the fallback added by the caller). */
  async function rulesInForce(project: Project, mergeRequest: MergeRequest, overwritten: boolean, tx?: Queryable): Promise<Array<ProjectApprovalRule | MergeRequestApprovalRule>> {
    if (overwritten) return (await repository.mergeRequestRules(mergeRequest.id, tx)).filter((rule) => rule.rule_type !== 'code_owner');
    const [rules, protectedBranches] = await Promise.all([repository.projectRules(project.id, tx), repository.protectedBranches(project.id, tx)]);
    return rules.filter((rule) => appliesTo(rule, mergeRequest.target_branch, protectedBranches));
  }

  return {
    settingsOf,
    appliesTo,
    committersOf,

    /**
     * The approval state; `viewerId` joins the users whose eligibility is read (may they approve?),
     * and `visibleGroup` tells which rule groups the viewer may see (hidden groups otherwise).
     */
    async load(
      project: Project,
      mergeRequest: MergeRequest,
      options: { viewerId?: number | null; visibleGroup?: (groupId: number) => Promise<boolean>; withCommitters?: boolean; tx?: Queryable } = {},
    ): Promise<LoadedApprovalState> {
      const { tx } = options;
      const { settings, resolved } = await settingsOf(project, tx);
      const overwritten = settings.allowOverridesToApproverListPerMergeRequest && (await repository.isOverwritten(mergeRequest.id, tx));
      const [stored, codeOwnerRules, approvals, committerIds] = await Promise.all([
        rulesInForce(project, mergeRequest, overwritten, tx),
        deps.codeOwners.codeOwnerRules(project, mergeRequest, tx),
        repository.approvals(mergeRequest.id, tx),
        // git is asked only when committers matter (they may not approve) or the caller shows them
        !settings.allowCommitterApproval || options.withCommitters ? committersOf(mergeRequest, tx) : Promise.resolve([]),
      ]);
      const allGroupIds = [...new Set([...stored.flatMap((rule) => rule.group_ids), ...codeOwnerRules.flatMap((rule) => rule.groupIds)])];
      const groupMembers = await repository.groupMemberIds(allGroupIds, tx);
      const hidden = new Set<number>();
      if (options.visibleGroup) for (const id of allGroupIds) if (!(await options.visibleGroup(id))) hidden.add(id);
      const ruleMembers = new Map<number, { userIds: number[]; groupIds: number[] }>();
      const candidatesOf = (userIds: number[], groupIds: number[]) => [...userIds, ...groupIds.flatMap((id) => groupMembers.get(id) ?? [])];

      const rules: RuleFacts[] = [];
      // Code owner rules first, as GitLab lists them.
      for (const rule of codeOwnerRules) {
        rules.push({
          id: null,
          name: rule.name,
          ruleType: 'code_owner',
          reportType: null,
          section: rule.section,
          approvalsRequired: rule.approvalsRequired,
          candidateIds: candidatesOf(rule.userIds, rule.groupIds),
          containsHiddenGroups: rule.groupIds.some((id) => hidden.has(id)),
          allowMergeWhenInvalid: true,
          codeOwnerApprovalRequired: rule.approvalRequired,
        });
      }
      for (const rule of stored) {
        ruleMembers.set(rule.id, { userIds: rule.user_ids, groupIds: rule.group_ids });
        rules.push({
          id: rule.id,
          name: rule.name,
          ruleType: rule.rule_type,
          reportType: rule.report_type,
          section: 'section' in rule ? rule.section : null,
          approvalsRequired: rule.approvals_required,
          candidateIds: candidatesOf(rule.user_ids, rule.group_ids),
          containsHiddenGroups: rule.group_ids.some((id) => hidden.has(id)),
          // GitLab: only rules made by security policies block the merge while invalid
          allowMergeWhenInvalid: true,
          sourceRuleId: 'approval_project_rule_id' in rule ? rule.approval_project_rule_id : rule.id,
        });
      }
      if (stored.length === 0 && settings.approvalsBeforeMerge > 0) {
        rules.push({ id: null, name: 'All Members', ruleType: 'fallback', reportType: null, section: null, approvalsRequired: settings.approvalsBeforeMerge, candidateIds: [], containsHiddenGroups: false, allowMergeWhenInvalid: true });
      }

      const anyApprover = rules.some((rule) => rule.ruleType === 'any_approver' || rule.ruleType === 'fallback');
      const among = [...new Set([...rules.flatMap((rule) => rule.candidateIds), ...approvals.map((approval) => approval.user_id), ...(options.viewerId ? [options.viewerId] : [])])];
      const eligible = await repository.eligibleUserIds(
        { id: project.id, traversalIds: project.namespace_kind === 'group' ? project.namespace_traversal_ids.map(Number) : [], namespaceOwnerId: project.namespace_owner_id },
        anyApprover ? undefined : among,
        tx,
      );
      const facts: ApprovalFacts = {
        rules,
        eligibleIds: new Set(eligible),
        approverIds: approvals.map((approval) => approval.user_id),
        authorId: mergeRequest.author_id,
        committerIds: new Set(committerIds),
        allowAuthorApproval: settings.allowAuthorApproval,
        allowCommitterApproval: settings.allowCommitterApproval,
        merged: mergeRequest.state === 'merged',
      };
      return { settings, resolved, overwritten, facts, state: evaluateApprovalState(facts), approvals, ruleMembers, committerIds };
    },
  };
}

export type ApprovalLoader = ReturnType<typeof createApprovalLoader>;
