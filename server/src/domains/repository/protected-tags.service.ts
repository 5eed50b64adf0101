import { AccessLevel } from '@tributary/contracts';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ConflictError, RecordNotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import { accessLevelDescription } from '../protected-branches/protected-branch.js';
import { PROTECTED_TAG_ACCESS_LEVELS, type CreateAccessRule, type ProtectedTag } from '../protected-tags/protected-tag.js';
import type { CreateGrant, ProtectedTagsRepository } from '../protected-tags/protected-tags.repository.js';
import type { UsersRepository } from '../users/users.repository.js';
import { protectionNameProblem, type AccessItemInput } from './protected-branch-rules.js';
import type { RepositoryAccess } from './repository-access.js';

export interface CreateRuleView extends CreateAccessRule {
  /** "Maintainers", or the user's or group's name for individual grants. */
  description: string;
}

export interface ProtectedTagView extends Omit<ProtectedTag, 'rules'> {
  rules: CreateRuleView[];
}

export interface ProtectedTagInput {
  create_access_level?: number;
  allowed_to_create?: AccessItemInput[];
}

const invalid = (field: string) => new ValidationError(`400 (Bad request) "${field}" does not have a valid value`);

function assertTagAccessLevel(field: string, level: number): number {
  if (!(PROTECTED_TAG_ACCESS_LEVELS as readonly number[]).includes(level)) throw invalid(field);
  return level;
}

/**
 * The grants of a new protected tag, pure: `create_access_level` (Maintainers when neither it
 * nor `allowed_to_create` is given, as GitLab does) plus one grant per `allowed_to_create` item.
 */
export function tagCreationGrants(input: ProtectedTagInput): CreateGrant[] {
  const grants: CreateGrant[] = [];
  const items = (input.allowed_to_create ?? []).filter((item) => !item._destroy);
  if (input.create_access_level !== undefined) grants.push({ access_level: assertTagAccessLevel('create_access_level', input.create_access_level) });
  else if (items.length === 0) grants.push({ access_level: AccessLevel.Maintainer });
  for (const item of items) {
    if (item.deploy_key_id !== undefined) throw new ValidationError('400 (Bad request) "allowed_to_create" deploy keys are not supported');
    const given = [item.access_level, item.user_id, item.group_id].filter((value) => value !== undefined);
    if (given.length !== 1) throw new ValidationError('400 (Bad request) "allowed_to_create" items need exactly one of access_level, user_id, group_id');
    if (item.access_level !== undefined) grants.push({ access_level: assertTagAccessLevel('allowed_to_create', item.access_level) });
    else if (item.user_id !== undefined) grants.push({ user_id: item.user_id });
    else grants.push({ group_id: item.group_id! });
  }
  return grants;
}

/**
 * GitLab's protected tags API (doc/api/protected_tags.md). Every call needs admin_project
 * (Maintainer); who may then create, move or delete a matching tag is decided by
 * checkTagUpdate (domains/protected-tags/tag-rules.ts) for git push and the tags API alike.
 */
export function createProtectedTagsService(deps: {
  access: RepositoryAccess;
  db: Pick<Database, 'transaction'>;
  protectedTags: Pick<ProtectedTagsRepository, 'listForProject' | 'findByName' | 'insert' | 'remove'>;
  users: Pick<UsersRepository, 'findById'>;
  namespaces: Pick<NamespacesRepository, 'findById'>;
}) {
  const { access } = deps;

  async function describe(protection: ProtectedTag): Promise<ProtectedTagView> {
    const rules = await Promise.all(
      protection.rules.map(async (rule): Promise<CreateRuleView> => {
        if (rule.user_id !== null) return { ...rule, description: (await deps.users.findById(rule.user_id))?.name ?? '' };
        if (rule.group_id !== null) return { ...rule, description: (await deps.namespaces.findById(rule.group_id))?.full_name ?? '' };
        return { ...rule, description: accessLevelDescription(rule.access_level) };
      }),
    );
    return { ...protection, rules };
  }

  async function assertGrantees(grants: CreateGrant[]): Promise<void> {
    for (const grant of grants) {
      if (grant.user_id != null && !(await deps.users.findById(grant.user_id))) throw ValidationError.field('allowed_to_create', `user ${grant.user_id} does not exist`);
      if (grant.group_id != null && (await deps.namespaces.findById(grant.group_id))?.kind !== 'group') {
        throw ValidationError.field('allowed_to_create', `group ${grant.group_id} does not exist`);
      }
    }
  }

  return {
    async list(actor: Actor, idOrPath: string | number, options: { limit: number; offset: number }) {
      const { project } = await access.open(actor, idOrPath, 'admin_project');
      const all = await deps.protectedTags.listForProject(project.id);
      return { project, total: all.length, protections: await Promise.all(all.slice(options.offset, options.offset + options.limit).map(describe)) };
    },

    async show(actor: Actor, idOrPath: string | number, name: string): Promise<ProtectedTagView> {
      const { project } = await access.open(actor, idOrPath, 'admin_project');
      const protection = await deps.protectedTags.findByName(project.id, name);
      if (!protection) throw new RecordNotFoundError();
      return describe(protection);
    },

    async create(actor: Actor, idOrPath: string | number, name: string, input: ProtectedTagInput): Promise<ProtectedTagView> {
      const { project } = await access.open(actor, idOrPath, 'admin_project');
      const problem = protectionNameProblem(name);
      if (problem) throw new ValidationError(problem);
      const conflict = () => new ConflictError(`Protected tag '${name}' already exists`);
      if (await deps.protectedTags.findByName(project.id, name)) throw conflict();
      const grants = tagCreationGrants(input);
      await assertGrantees(grants);
      try {
        await deps.db.transaction((tx) => deps.protectedTags.insert(project.id, name, grants, tx));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict();
        throw error;
      }
      return describe((await deps.protectedTags.findByName(project.id, name))!);
    },

    async remove(actor: Actor, idOrPath: string | number, name: string): Promise<void> {
      const { project } = await access.open(actor, idOrPath, 'admin_project');
      if (!(await deps.protectedTags.remove(project.id, name))) throw new RecordNotFoundError();
    },
  };
}

export type ProtectedTagsService = ReturnType<typeof createProtectedTagsService>;
