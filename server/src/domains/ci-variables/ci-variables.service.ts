import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { isUniqueViolation, type Database } from '../../platform/db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import type { GroupsService } from '../namespaces/groups.service.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { CiVariable, VariableAttributes, VariableOwner } from './ci-variable.js';
import type { CiVariablesRepository } from './ci-variables.repository.js';
import { normalizeAttributes, takenMessage, variableErrors, type VariableFields } from './variable-rules.js';
import { variablesForJob, type JobVariable, type JobVariableSources } from './variables-for-job.js';

/** Whose variables a request names: a project or group by id or path, or the instance's. */
export type OwnerRef = { kind: 'project'; idOrPath: string | number } | { kind: 'group'; idOrPath: string | number } | { kind: 'instance' };

export interface CreateVariableInput extends VariableAttributes {
  /** GitLab's `masked_and_hidden`: masked, and the value is never shown again */
  masked_and_hidden?: boolean;
}

/** GitLab's 404 wording per owner: "404 Variable Not Found", "404 GroupVariable Not Found", "404 InstanceVariable Not Found". */
const NOT_FOUND_NAME = { project: 'Variable', group: 'GroupVariable', instance: 'InstanceVariable' } as const;
const MULTIPLE = "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'";

/**
 * CI/CD variables of projects, groups and the instance (GitLab's doc/api/project_level_variables.md,
 * group_level_variables.md, instance_level_variables.md). A project's need admin_cicd_variables
 * (Maintainer), a group's admin_cicd_variables (Owner), the instance's an administrator; an
 * unreadable project or group is a 404. Values are returned to those callers (as GitLab does)
 * except hidden ones, and are never logged.
 */
export function createCiVariablesService(deps: {
  db: Pick<Database, 'transaction'>;
  variables: CiVariablesRepository;
  projects: Pick<ProjectsService, 'find'>;
  groups: Pick<GroupsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize'>;
}) {
  const { variables } = deps;

  /** Resolves and authorizes the owner: 401 signed out, 404 unseen, 403 seen but not managed. */
  async function owner(actor: Actor, ref: OwnerRef): Promise<VariableOwner> {
    if (!actor.user) throw new UnauthorizedError();
    if (ref.kind === 'project') {
      const project = await deps.projects.find(actor, ref.idOrPath);
      await deps.authorizer.authorize(actor, 'admin_cicd_variables', { project });
      return { kind: 'project', id: project.id };
    }
    if (ref.kind === 'group') {
      const group = await deps.groups.find(actor, ref.idOrPath);
      await deps.authorizer.authorize(actor, 'admin_cicd_variables', { group });
      return { kind: 'group', id: group.id };
    }
    if (!actor.user.is_admin) throw new ForbiddenError();
    return { kind: 'instance' };
  }

  /** GitLab's find_variable: by key, narrowed by `filter[environment_scope]`; two matches are a 409. */
  async function findOne(target: VariableOwner, key: string, environmentScope: string | undefined, options: { firstOfMany?: boolean } = {}): Promise<CiVariable> {
    const found = await variables.findByKey(target, key, target.kind === 'instance' ? undefined : environmentScope || undefined);
    if (found.length === 0) throw new NotFoundError(NOT_FOUND_NAME[target.kind]);
    if (found.length > 1 && !options.firstOfMany) throw new ConflictError(MULTIPLE);
    return found[0]!;
  }

  function check(target: VariableOwner, next: VariableFields, previous?: CiVariable): void {
    const errors = variableErrors(target, next, previous);
    if (errors) throw new ValidationError(errors);
  }

  /** A duplicate key and scope is GitLab's validation error on `key`, whichever request lost the race. */
  async function unique<T>(key: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw ValidationError.field('key', takenMessage(key));
      throw error;
    }
  }

  /**
   * What `variablesForJob` needs for a job of this project, unfiltered (it applies the protected
   * and environment rules): the project's, each group's from the top down, the instance's.
   * No authorization: the pipelines engine calls it for a pipeline it already admitted.
   */
  async function jobVariableSources(project: Pick<Project, 'id' | 'namespace_kind' | 'namespace_traversal_ids'>): Promise<Pick<JobVariableSources, 'project' | 'groupAncestry' | 'instance'>> {
    const groupIds = project.namespace_kind === 'group' ? project.namespace_traversal_ids : [];
    const [own, groups, instance] = await Promise.all([
      variables.list({ kind: 'project', id: project.id }),
      variables.listForGroups(groupIds),
      variables.list({ kind: 'instance' }),
    ]);
    return { project: own, groupAncestry: groupIds.map((id) => groups.filter((variable) => variable.group_id === id)), instance };
  }

  return {
    jobVariableSources,

    async list(actor: Actor, ref: OwnerRef, page: { limit: number; offset: number }) {
      const target = await owner(actor, ref);
      const all = await variables.list(target);
      return { owner: target, total: all.length, variables: all.slice(page.offset, page.offset + page.limit) };
    },

    async show(actor: Actor, ref: OwnerRef, key: string, environmentScope?: string) {
      const target = await owner(actor, ref);
      return { owner: target, variable: await findOne(target, key, environmentScope) };
    },

    async create(actor: Actor, ref: OwnerRef, input: CreateVariableInput) {
      const target = await owner(actor, ref);
      const attributes = normalizeAttributes(input);
      if (attributes.key === undefined) throw ValidationError.missing('key');
      if (attributes.value === undefined) throw ValidationError.missing('value');
      const hidden = target.kind !== 'instance' && input.masked_and_hidden === true;
      const fields: VariableFields = {
        key: attributes.key,
        value: attributes.value,
        variable_type: attributes.variable_type ?? 'env_var',
        protected: attributes.protected ?? false,
        masked: hidden || (attributes.masked ?? false),
        hidden,
        raw: attributes.raw ?? false,
        environment_scope: target.kind === 'instance' ? '*' : (attributes.environment_scope ?? '*'),
        description: attributes.description ?? null,
      };
      check(target, fields);
      const created = await unique(fields.key, async () => {
        if ((await variables.findByKey(target, fields.key, fields.environment_scope)).length > 0) throw ValidationError.field('key', takenMessage(fields.key));
        return variables.insert(target, fields);
      });
      return { owner: target, variable: created };
    },

    /**
     * Changes a variable found by key (and `filter[environment_scope]`). The key itself is not
     * changed. A group's update without a filter takes the first variable of that key, as GitLab's does.
     */
    async update(actor: Actor, ref: OwnerRef, key: string, environmentScope: string | undefined, input: VariableAttributes) {
      const target = await owner(actor, ref);
      const previous = await findOne(target, key, environmentScope, { firstOfMany: target.kind === 'group' && !environmentScope });
      const attributes = normalizeAttributes(input);
      const next: VariableFields = {
        key: previous.key,
        value: attributes.value ?? previous.value,
        variable_type: attributes.variable_type ?? previous.variable_type,
        protected: attributes.protected ?? previous.protected,
        masked: attributes.masked ?? previous.masked,
        hidden: previous.hidden,
        raw: attributes.raw ?? previous.raw,
        environment_scope: target.kind === 'instance' ? '*' : (attributes.environment_scope ?? previous.environment_scope),
        description: attributes.description !== undefined ? attributes.description : previous.description,
      };
      check(target, next, previous);
      const updated = await unique(next.key, async () => {
        const clash = await variables.findByKey(target, next.key, next.environment_scope);
        if (clash.some((other) => other.id !== previous.id)) throw ValidationError.field('key', takenMessage(next.key));
        return variables.update(previous.id, next);
      });
      if (!updated) throw new NotFoundError(NOT_FOUND_NAME[target.kind]);
      return { owner: target, variable: updated };
    },

    async remove(actor: Actor, ref: OwnerRef, key: string, environmentScope?: string): Promise<void> {
      const target = await owner(actor, ref);
      const variable = await findOne(target, key, environmentScope);
      if (!(await variables.remove(variable.id))) throw new NotFoundError(NOT_FOUND_NAME[target.kind]);
    },

    /** The variables one job receives: its project's stored variables through `variablesForJob`. */
    async jobVariables(
      project: Pick<Project, 'id' | 'namespace_kind' | 'namespace_traversal_ids'>,
      job: Pick<JobVariableSources, 'refProtected' | 'environment' | 'fromFork' | 'pipeline'>,
    ): Promise<JobVariable[]> {
      return variablesForJob({ ...(await jobVariableSources(project)), ...job });
    },
  };
}

export type CiVariablesService = ReturnType<typeof createCiVariablesService>;
