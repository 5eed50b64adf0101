/**
 * The project's approval rules and a merge request's own (GitLab's ApprovalRules::CreateService,
 * UpdateService and FinalizeService). Anyone who sees merge requests reads them; Maintainers
 * write the project's; whoever may edit a merge request edits its rules, when the project
 * allows overrides. A merge request's first edit makes its rules, not the project's, decide.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { OpenedMergeRequest } from '../merge-requests/merge-request.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import { reportTypeForName, type MergeRequestApprovalRule, type ProjectApprovalRule, type ReportType, type RuleType } from './approval-rule.js';
import type { ApprovalLoader } from './approval-loader.js';
import type { ApprovalsRepository } from './approvals.repository.js';

export interface RuleInput {
  name?: string;
  approvalsRequired?: number;
  ruleType?: Exclude<RuleType, 'code_owner'>;
  reportType?: ReportType;
  userIds?: number[];
  usernames?: string[];
  groupIds?: number[];
  protectedBranchIds?: number[];
  appliesToAllProtectedBranches?: boolean;
  approvalProjectRuleId?: number;
}

const NAME_TAKEN = { name: ['has already been taken'] };

export function createApprovalRulesService(deps: {
  db: Pick<Database, 'transaction'>;
  repository: ApprovalsRepository;
  loader: Pick<ApprovalLoader, 'settingsOf'>;
  projects: Pick<ProjectsService, 'find'>;
  mergeRequestsService: Pick<MergeRequestsService, 'open'>;
  authorizer: Pick<Authorizer, 'authorize' | 'can'>;
  users: Pick<UsersRepository, 'findById' | 'findByUsername'>;
  namespaces: Pick<NamespacesRepository, 'findById'>;
}) {
  const { repository } = deps;

  /** Existing users (by id or username) and groups; GitLab drops what it cannot find. */
  async function members(input: RuleInput): Promise<{ userIds?: number[]; groupIds?: number[] }> {
    let userIds: number[] | undefined;
    if (input.userIds !== undefined || input.usernames !== undefined) {
      userIds = [];
      for (const id of input.userIds ?? []) if (await deps.users.findById(id)) userIds.push(id);
      for (const name of input.usernames ?? []) {
        const user = await deps.users.findByUsername(name);
        if (user) userIds.push(user.id);
      }
      userIds = [...new Set(userIds)];
    }
    let groupIds: number[] | undefined;
    if (input.groupIds !== undefined) {
      groupIds = [];
      for (const id of new Set(input.groupIds)) if ((await deps.namespaces.findById(id))?.kind === 'group') groupIds.push(id);
    }
    return { userIds, groupIds };
  }

  function validate(input: RuleInput, creating: boolean): void {
    if (creating && (input.name === undefined || input.name.trim() === '')) throw ValidationError.missing('name');
    if (creating && input.approvalsRequired === undefined) throw ValidationError.missing('approvals_required');
    if (input.approvalsRequired !== undefined && (input.approvalsRequired < 0 || input.approvalsRequired > 100)) throw ValidationError.field('approvals_required', 'must be greater than or equal to 0');
  }

  async function projectFor(actor: Actor, idOrPath: string | number, write: boolean): Promise<Project> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, write ? 'admin_merge_request_approvals' : 'read_merge_request', { project });
    return project;
  }

  async function findProjectRule(project: Project, ruleId: number): Promise<ProjectApprovalRule> {
    const rule = (await repository.projectRules(project.id)).find((candidate) => candidate.id === ruleId);
    if (!rule) throw new NotFoundError();
    return rule;
  }

  /** The merge request, for writing its rules: 403 unless the caller may edit it and the project allows overrides. */
  async function openForRules(actor: Actor, idOrPath: string | number, iid: number, write: boolean): Promise<OpenedMergeRequest> {
    const opened = await deps.mergeRequestsService.open(actor, idOrPath, iid);
    if (!write) return opened;
    if (!opened.abilities.has('update_merge_request')) throw new ForbiddenError();
    const { settings } = await deps.loader.settingsOf(opened.project);
    if (!settings.allowOverridesToApproverListPerMergeRequest) throw new ForbiddenError();
    return opened;
  }

  return {
    async listProjectRules(actor: Actor, idOrPath: string | number): Promise<{ project: Project; rules: ProjectApprovalRule[] }> {
      const project = await projectFor(actor, idOrPath, false);
      return { project, rules: await repository.projectRules(project.id) };
    },

    async projectRule(actor: Actor, idOrPath: string | number, ruleId: number): Promise<{ project: Project; rule: ProjectApprovalRule }> {
      const project = await projectFor(actor, idOrPath, false);
      return { project, rule: await findProjectRule(project, ruleId) };
    },

    async createProjectRule(actor: Actor, idOrPath: string | number, input: RuleInput): Promise<{ project: Project; rule: ProjectApprovalRule }> {
      const project = await projectFor(actor, idOrPath, true);
      validate(input, true);
      const ruleType = input.ruleType ?? (input.reportType || reportTypeForName(input.name!) ? 'report_approver' : 'regular');
      const reportType = ruleType === 'report_approver' ? (input.reportType ?? reportTypeForName(input.name!) ?? 'any_merge_request') : null;
      const people = ruleType === 'any_approver' ? { userIds: [], groupIds: [] } : await members(input);
      const branches = input.protectedBranchIds === undefined ? undefined : await ownBranches(project, input.protectedBranchIds);
      const id = await deps.db.transaction(async (tx) => {
        const ruleId = await repository.insertRule({ kind: 'project', id: project.id }, { name: input.name!.trim(), approvalsRequired: input.approvalsRequired!, ruleType, reportType, appliesToAllProtectedBranches: input.appliesToAllProtectedBranches }, tx);
        if (ruleId === null) throw new ValidationError(ruleType === 'any_approver' ? { rule_type: ['any-approver for the project already exists'] } : NAME_TAKEN);
        await repository.setMembers({ kind: 'project', id: project.id }, ruleId, { ...people, protectedBranchIds: branches }, tx);
        return ruleId;
      });
      return { project, rule: await findProjectRule(project, id) };
    },

    async updateProjectRule(actor: Actor, idOrPath: string | number, ruleId: number, input: RuleInput): Promise<{ project: Project; rule: ProjectApprovalRule }> {
      const project = await projectFor(actor, idOrPath, true);
      const rule = await findProjectRule(project, ruleId);
      validate(input, false);
      const people = rule.rule_type === 'any_approver' ? {} : await members(input);
      const branches = input.protectedBranchIds === undefined ? undefined : await ownBranches(project, input.protectedBranchIds);
      try {
        await deps.db.transaction(async (tx) => {
          await repository.updateRule({ kind: 'project', id: project.id }, rule.id, { name: input.name?.trim(), approvalsRequired: input.approvalsRequired, appliesToAllProtectedBranches: input.appliesToAllProtectedBranches }, tx);
          await repository.setMembers({ kind: 'project', id: project.id }, rule.id, { ...people, protectedBranchIds: branches }, tx);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ValidationError(NAME_TAKEN);
        throw error;
      }
      return { project, rule: await findProjectRule(project, rule.id) };
    },

    async deleteProjectRule(actor: Actor, idOrPath: string | number, ruleId: number): Promise<void> {
      const project = await projectFor(actor, idOrPath, true);
      if (!(await repository.deleteRule({ kind: 'project', id: project.id }, ruleId))) throw new NotFoundError();
    },

    async listMergeRequestRules(actor: Actor, idOrPath: string | number, iid: number): Promise<{ opened: OpenedMergeRequest; rules: MergeRequestApprovalRule[] }> {
      const opened = await openForRules(actor, idOrPath, iid, false);
      return { opened, rules: await repository.mergeRequestRules(opened.mergeRequest.id) };
    },

    async mergeRequestRule(actor: Actor, idOrPath: string | number, iid: number, ruleId: number): Promise<{ opened: OpenedMergeRequest; rule: MergeRequestApprovalRule }> {
      const opened = await openForRules(actor, idOrPath, iid, false);
      const rule = (await repository.mergeRequestRules(opened.mergeRequest.id)).find((candidate) => candidate.id === ruleId);
      if (!rule) throw new NotFoundError();
      return { opened, rule };
    },

    async createMergeRequestRule(actor: Actor, idOrPath: string | number, iid: number, input: RuleInput): Promise<{ opened: OpenedMergeRequest; rule: MergeRequestApprovalRule }> {
      const opened = await openForRules(actor, idOrPath, iid, true);
      validate(input, true);
      const mergeRequestId = opened.mergeRequest.id;
      let people = await members(input);
      let source: ProjectApprovalRule | undefined;
      if (input.approvalProjectRuleId !== undefined) {
        source = (await repository.projectRules(opened.project.id)).find((rule) => rule.id === input.approvalProjectRuleId);
        if (!source) throw new NotFoundError();
        // GitLab takes the source rule's approvers when none are given
        if (people.userIds === undefined && people.groupIds === undefined) people = { userIds: source.user_ids, groupIds: source.group_ids };
      }
      const id = await deps.db.transaction(async (tx) => {
        const ruleId = (await repository.insertRule({ kind: 'merge_request', id: mergeRequestId }, { name: input.name!.trim(), approvalsRequired: input.approvalsRequired!, ruleType: source?.rule_type ?? 'regular', reportType: source?.report_type ?? null, approvalProjectRuleId: source?.id ?? null }, tx))!;
        await repository.setMembers({ kind: 'merge_request', id: mergeRequestId }, ruleId, people, tx);
        await repository.setOverwritten(mergeRequestId, true, tx);
        return ruleId;
      });
      return this.mergeRequestRule(actor, idOrPath, iid, id);
    },

    async updateMergeRequestRule(actor: Actor, idOrPath: string | number, iid: number, ruleId: number, input: RuleInput): Promise<{ opened: OpenedMergeRequest; rule: MergeRequestApprovalRule }> {
      const opened = await openForRules(actor, idOrPath, iid, true);
      const { rule } = await this.mergeRequestRule(actor, idOrPath, iid, ruleId);
      // GitLab: report approver and code owner rules are not edited by hand
      if (rule.rule_type === 'report_approver' || rule.rule_type === 'code_owner') throw new ForbiddenError();
      validate(input, false);
      const people = await members(input);
      const mergeRequestId = opened.mergeRequest.id;
      await deps.db.transaction(async (tx) => {
        await repository.updateRule({ kind: 'merge_request', id: mergeRequestId }, rule.id, { name: input.name?.trim(), approvalsRequired: input.approvalsRequired }, tx);
        await repository.setMembers({ kind: 'merge_request', id: mergeRequestId }, rule.id, people, tx);
        await repository.setOverwritten(mergeRequestId, true, tx);
      });
      return this.mergeRequestRule(actor, idOrPath, iid, ruleId);
    },

    async deleteMergeRequestRule(actor: Actor, idOrPath: string | number, iid: number, ruleId: number): Promise<void> {
      const opened = await openForRules(actor, idOrPath, iid, true);
      const { rule } = await this.mergeRequestRule(actor, idOrPath, iid, ruleId);
      if (rule.rule_type === 'report_approver' || rule.rule_type === 'code_owner') throw new ForbiddenError();
      await deps.db.transaction(async (tx) => {
        await repository.deleteRule({ kind: 'merge_request', id: opened.mergeRequest.id }, ruleId, tx);
        await repository.setOverwritten(opened.mergeRequest.id, true, tx);
      });
    },
  };

  /** Protected branches must be the project's own (GitLab answers 404 for another's). */
  async function ownBranches(project: Project, ids: number[]): Promise<number[]> {
    const own = new Set((await repository.protectedBranches(project.id)).map((branch) => branch.id));
    for (const id of ids) if (!own.has(id)) throw new NotFoundError('Protected branch');
    return [...new Set(ids)];
  }
}

export type ApprovalRulesService = ReturnType<typeof createApprovalRulesService>;
