import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import type { Project } from '../projects/project.js';
import { accessLevelDescription, type AccessLevelRule, type ProtectedBranch } from '../protected-branches/protected-branch.js';
import type { AccessGrant, ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import { isAllowed } from '../protected-branches/push-rules.js';
import type { UsersRepository } from '../users/users.repository.js';
import { creationGrants, grantChanges, matchesProtectionSearch, protectionNameProblem, type ProtectionInput } from './protected-branch-rules.js';
import type { RepositoryAccess } from './repository-access.js';

export interface AccessRuleView extends AccessLevelRule {
  /** "Maintainers", or the user's or group's name for individual grants. */
  description: string;
}

export interface ProtectedBranchView extends Omit<ProtectedBranch, 'rules'> {
  rules: AccessRuleView[];
}

/**
 * GitLab's protected branches API (doc/api/protected_branches.md). Every call
 * needs admin_protected_branches (Maintainer); changing or removing a
 * protection that has unprotect rules also needs one of them to allow the caller.
 */
export function createProtectedBranchesService(deps: {
  access: RepositoryAccess;
  db: Pick<Database, 'transaction'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject' | 'findByName' | 'insert' | 'update' | 'insertGrants' | 'deleteGrants' | 'replaceRoleGrant' | 'remove'>;
  users: Pick<UsersRepository, 'findById'>;
  namespaces: Pick<NamespacesRepository, 'findById'>;
}) {
  const { access } = deps;

  async function describe(protection: ProtectedBranch): Promise<ProtectedBranchView> {
    const rules = await Promise.all(
      protection.rules.map(async (rule): Promise<AccessRuleView> => {
        if (rule.user_id !== null) return { ...rule, description: (await deps.users.findById(rule.user_id))?.name ?? '' };
        if (rule.group_id !== null) return { ...rule, description: (await deps.namespaces.findById(rule.group_id))?.full_name ?? '' };
        return { ...rule, description: accessLevelDescription(rule.access_level) };
      }),
    );
    return { ...protection, rules };
  }

  /** Users and groups named by grants must exist (the foreign keys would otherwise fail with a 500). */
  async function assertGrantees(grants: AccessGrant[]): Promise<void> {
    for (const grant of grants) {
      if (grant.user_id != null && !(await deps.users.findById(grant.user_id))) {
        throw ValidationError.field(`allowed_to_${grant.kind}`, `user ${grant.user_id} does not exist`);
      }
      if (grant.group_id != null && (await deps.namespaces.findById(grant.group_id))?.kind !== 'group') {
        throw ValidationError.field(`allowed_to_${grant.kind}`, `group ${grant.group_id} does not exist`);
      }
    }
  }

  async function load(actor: Actor, idOrPath: string | number, name: string): Promise<{ project: Project; protection: ProtectedBranch }> {
    const { project } = await access.open(actor, idOrPath, 'admin_protected_branches');
    const protection = await deps.protectedBranches.findByName(project.id, name);
    if (!protection) throw new NotFoundError('Protected Branch');
    return { project, protection };
  }

  /** Unprotect rules, when a protection has any, decide who may change or remove it. */
  async function assertMayUnprotect(actor: Actor, project: Project, protection: ProtectedBranch): Promise<void> {
    if (!protection.rules.some((rule) => rule.kind === 'unprotect')) return;
    if (!isAllowed('unprotect', await access.pusher(actor, project), [protection])) throw new ForbiddenError();
  }

  return {
    async list(actor: Actor, idOrPath: string | number, options: { search?: string; limit: number; offset: number }) {
      const { project } = await access.open(actor, idOrPath, 'admin_protected_branches');
      const all = (await deps.protectedBranches.listForProject(project.id)).filter((p) => matchesProtectionSearch(p.name, options.search));
      const page = all.slice(options.offset, options.offset + options.limit);
      return { project, total: all.length, protections: await Promise.all(page.map(describe)) };
    },

    async show(actor: Actor, idOrPath: string | number, name: string): Promise<ProtectedBranchView> {
      return describe((await load(actor, idOrPath, name)).protection);
    },

    async create(actor: Actor, idOrPath: string | number, name: string, input: ProtectionInput): Promise<ProtectedBranchView> {
      const { project } = await access.open(actor, idOrPath, 'admin_protected_branches');
      const problem = protectionNameProblem(name);
      if (problem) throw new ValidationError(problem);
      const conflict = () => new ConflictError(`Protected branch '${name}' already exists`);
      if (await deps.protectedBranches.findByName(project.id, name)) throw conflict();
      const grants = creationGrants(input);
      await assertGrantees(grants);
      try {
        await deps.db.transaction((tx) =>
          deps.protectedBranches.insert(
            project.id,
            { name, allowForcePush: input.allow_force_push ?? false, codeOwnerApprovalRequired: input.code_owner_approval_required ?? false, grants },
            tx,
          ),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict();
        throw error;
      }
      return describe((await deps.protectedBranches.findByName(project.id, name))!);
    },

    async update(actor: Actor, idOrPath: string | number, name: string, input: ProtectionInput): Promise<ProtectedBranchView> {
      const { project, protection } = await load(actor, idOrPath, name);
      await assertMayUnprotect(actor, project, protection);
      const changes = grantChanges(protection, input);
      await assertGrantees(changes.insert);
      await deps.db.transaction(async (tx) => {
        await deps.protectedBranches.update(protection.id, { allowForcePush: input.allow_force_push, codeOwnerApprovalRequired: input.code_owner_approval_required }, tx);
        for (const { kind, level } of changes.roleLevels) await deps.protectedBranches.replaceRoleGrant(protection.id, kind, level, tx);
        if (changes.deleteIds.length > 0) await deps.protectedBranches.deleteGrants(protection.id, changes.deleteIds, tx);
        await deps.protectedBranches.insertGrants(protection.id, changes.insert, tx);
      });
      return describe((await deps.protectedBranches.findByName(project.id, name))!);
    },

    async remove(actor: Actor, idOrPath: string | number, name: string): Promise<void> {
      const { project, protection } = await load(actor, idOrPath, name);
      await assertMayUnprotect(actor, project, protection);
      if (!(await deps.protectedBranches.remove(project.id, name))) throw new NotFoundError('Protected Branch');
    },
  };
}

export type ProtectedBranchesService = ReturnType<typeof createProtectedBranchesService>;
