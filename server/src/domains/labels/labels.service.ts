/**
 * Project and group labels (doc/api/labels.md, group_labels.md): reading needs reading the
 * project or group (404 otherwise), managing needs admin_label (Reporter and above). A project
 * is offered its own labels and those of every group above it.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Namespace } from '../namespaces/namespace.js';
import type { GroupsService } from '../namespaces/groups.service.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { labelColorError, labelTitleError, LABEL_DESCRIPTION_MAX, normalizeColor } from './label-rules.js';
import type { Label, LabelScope, LabelsRepository } from './labels.repository.js';

/** GitLab's Label::DEFAULT_COLOR, for labels made by naming them on a merge request. */
export const DEFAULT_LABEL_COLOR = '#6699cc';

export interface LabelInput {
  name?: string;
  color?: string;
  description?: string | null;
  /** null removes the priority */
  priority?: number | null;
}

/** Groups above a project (nearest last), or a group and those above it. */
export const projectGroupIds = (project: Project): number[] => (project.namespace_kind === 'group' ? project.namespace_traversal_ids : []);
export const projectLabelScope = (project: Project, includeAncestorGroups = true): LabelScope => ({
  projectId: project.id,
  groupIds: includeAncestorGroups ? projectGroupIds(project) : [],
});

function checked(input: LabelInput, creating: boolean): { title?: string; color?: string; description?: string | null } {
  if (creating && (input.name === undefined || input.name === '')) throw ValidationError.missing('name');
  if (creating && (input.color === undefined || input.color === '')) throw ValidationError.missing('color');
  const invalid =
    (input.name !== undefined ? labelTitleError(input.name) : null) ??
    (input.color !== undefined ? labelColorError(input.color) : null) ??
    (input.description && input.description.length > LABEL_DESCRIPTION_MAX ? ValidationError.field('description', `is too long (maximum is ${LABEL_DESCRIPTION_MAX} characters)`) : null) ??
    (input.priority !== undefined && input.priority !== null && (!Number.isSafeInteger(input.priority) || input.priority < 0) ? ValidationError.field('priority', 'must be greater than or equal to 0') : null);
  if (invalid) throw invalid;
  return { title: input.name?.trim(), color: input.color === undefined ? undefined : normalizeColor(input.color)!, description: input.description };
}

const alreadyExists = () => new ConflictError('Label already exists');

export function createLabelsService(deps: {
  db: Pick<Database, 'transaction'>;
  labels: LabelsRepository;
  projects: Pick<ProjectsService, 'find'>;
  groups: Pick<GroupsService, 'find'>;
  authorizer: Authorizer;
}) {
  const { labels } = deps;

  async function readableProject(actor: Actor, idOrPath: string | number): Promise<Project> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, 'read_label', { project });
    return project;
  }
  async function readableGroup(actor: Actor, idOrPath: string | number): Promise<Namespace> {
    const group = await deps.groups.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, 'read_label', { group });
    return group;
  }

  async function uniquely<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (caught) {
      if (isUniqueViolation(caught)) throw alreadyExists();
      throw caught;
    }
  }

  async function reload(scope: LabelScope, id: number, tx?: Queryable): Promise<Label> {
    return (await labels.find(scope, String(id), tx))!;
  }

  return {
    readableProject,
    readableGroup,

    async listForProject(actor: Actor, idOrPath: string | number, options: { includeAncestorGroups?: boolean; search?: string }) {
      const project = await readableProject(actor, idOrPath);
      return { project, labels: await labels.list(projectLabelScope(project, options.includeAncestorGroups ?? true), { search: options.search }) };
    },

    async getForProject(actor: Actor, idOrPath: string | number, labelId: string, options: { includeAncestorGroups?: boolean } = {}) {
      const project = await readableProject(actor, idOrPath);
      const label = await labels.find(projectLabelScope(project, options.includeAncestorGroups ?? true), labelId);
      if (!label) throw new NotFoundError('Label');
      return { project, label };
    },

    async createForProject(actor: Actor, idOrPath: string | number, input: LabelInput) {
      const project = await readableProject(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'admin_label', { project });
      const fields = checked(input, true);
      const scope = projectLabelScope(project, false);
      const label = await uniquely(() =>
        deps.db.transaction(async (tx) => {
          const id = await labels.insert({ projectId: project.id }, { title: fields.title!, color: fields.color!, description: fields.description ?? null }, tx);
          if (input.priority !== undefined && input.priority !== null) await labels.setPriority(project.id, id, input.priority, tx);
          return reload(scope, id, tx);
        }),
      );
      return { project, label };
    },

    /**
     * Edits a label of the project. Its own labels take every field; a group's label only the
     * project's priority for it (the rest belongs to the group).
     */
    async updateForProject(actor: Actor, idOrPath: string | number, labelId: string, input: LabelInput) {
      const project = await readableProject(actor, idOrPath);
      const scope = projectLabelScope(project);
      const existing = await labels.find(scope, labelId);
      if (!existing) throw new NotFoundError('Label');
      await deps.authorizer.authorize(actor, 'admin_label', { project });
      const fields = checked(input, false);
      if (fields.title === undefined && fields.color === undefined && fields.description === undefined && input.priority === undefined) {
        throw new ValidationError('new_name, color, description, priority are missing, at least one parameter must be provided');
      }
      if (existing.project_id === null && (fields.title !== undefined || fields.color !== undefined || fields.description !== undefined)) throw new NotFoundError('Label');
      const label = await uniquely(() =>
        deps.db.transaction(async (tx) => {
          await labels.update(existing.id, fields, tx);
          if (input.priority !== undefined) await labels.setPriority(project.id, existing.id, input.priority, tx);
          return reload(scope, existing.id, tx);
        }),
      );
      return { project, label };
    },

    async deleteForProject(actor: Actor, idOrPath: string | number, labelId: string): Promise<void> {
      const project = await readableProject(actor, idOrPath);
      const existing = await labels.find(projectLabelScope(project, false), labelId);
      if (!existing) throw new NotFoundError('Label');
      await deps.authorizer.authorize(actor, 'admin_label', { project });
      await labels.remove(existing.id);
    },

    /**
     * A project label becomes a label of the project's group (GitLab's Labels::PromoteService):
     * an existing group label of that title is reused; merge requests and priorities follow.
     */
    async promote(actor: Actor, idOrPath: string | number, labelId: string) {
      const project = await readableProject(actor, idOrPath);
      const existing = await labels.find(projectLabelScope(project, false), labelId);
      if (!existing) throw new NotFoundError('Label');
      await deps.authorizer.authorize(actor, 'admin_label', { project });
      if (project.namespace_kind !== 'group') throw new ValidationError('Project does not belong to a group');
      const group = await deps.groups.find(actor, project.namespace_id);
      await deps.authorizer.authorize(actor, 'admin_label', { group });
      const groupScope: LabelScope = { projectId: null, groupIds: [group.id] };
      const label = await deps.db.transaction(async (tx) => {
        const [same] = await labels.byTitles(groupScope, [existing.title], tx);
        const targetId = same?.id ?? (await labels.insert({ groupId: group.id }, { title: existing.title, color: existing.color, description: existing.description }, tx));
        await labels.replace(existing.id, targetId, tx);
        return reload(groupScope, targetId, tx);
      });
      return { group, label };
    },

    async listForGroup(actor: Actor, idOrPath: string | number, options: { includeAncestorGroups?: boolean; search?: string }) {
      const group = await readableGroup(actor, idOrPath);
      const groupIds = options.includeAncestorGroups === false ? [group.id] : group.traversal_ids;
      return { group, labels: await labels.list({ projectId: null, groupIds }, { search: options.search }) };
    },

    async getForGroup(actor: Actor, idOrPath: string | number, labelId: string, options: { includeAncestorGroups?: boolean } = {}) {
      const group = await readableGroup(actor, idOrPath);
      const groupIds = options.includeAncestorGroups === false ? [group.id] : group.traversal_ids;
      const label = await labels.find({ projectId: null, groupIds }, labelId);
      if (!label) throw new NotFoundError('Label');
      return { group, label };
    },

    async createForGroup(actor: Actor, idOrPath: string | number, input: LabelInput) {
      const group = await readableGroup(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'admin_label', { group });
      const fields = checked({ ...input, priority: undefined }, true);
      const scope: LabelScope = { projectId: null, groupIds: [group.id] };
      const label = await uniquely(async () => reload(scope, await labels.insert({ groupId: group.id }, { title: fields.title!, color: fields.color!, description: fields.description ?? null })));
      return { group, label };
    },

    async updateForGroup(actor: Actor, idOrPath: string | number, labelId: string, input: LabelInput) {
      const group = await readableGroup(actor, idOrPath);
      const scope: LabelScope = { projectId: null, groupIds: [group.id] };
      const existing = await labels.find(scope, labelId);
      if (!existing) throw new NotFoundError('Label');
      await deps.authorizer.authorize(actor, 'admin_label', { group });
      const fields = checked({ ...input, priority: undefined }, false);
      if (fields.title === undefined && fields.color === undefined && fields.description === undefined) {
        throw new ValidationError('new_name, color, description are missing, at least one parameter must be provided');
      }
      const label = await uniquely(async () => {
        await labels.update(existing.id, fields);
        return reload(scope, existing.id);
      });
      return { group, label };
    },

    async deleteForGroup(actor: Actor, idOrPath: string | number, labelId: string): Promise<void> {
      const group = await readableGroup(actor, idOrPath);
      const existing = await labels.find({ projectId: null, groupIds: [group.id] }, labelId);
      if (!existing) throw new NotFoundError('Label');
      await deps.authorizer.authorize(actor, 'admin_label', { group });
      await labels.remove(existing.id);
    },

    /**
     * Subscribes the caller to a label of the project (its own or a group's above it) or stops
     * it; `changed` is false when it already was so (GitLab answers 304 Not Modified then).
     * Reading the label is enough, as in GitLab.
     */
    async setProjectSubscription(actor: Actor & { user: { id: number } }, idOrPath: string | number, labelId: string, subscribed: boolean) {
      const project = await readableProject(actor, idOrPath);
      const label = await labels.find(projectLabelScope(project), labelId);
      if (!label) throw new NotFoundError('Label');
      const changed = await labels.setSubscribed(actor.user.id, label.id, project.id, subscribed);
      return { project, label, changed };
    },

    /** The same for a label of a group (its own or an ancestor's), subscribed from the group. */
    async setGroupSubscription(actor: Actor & { user: { id: number } }, idOrPath: string | number, labelId: string, subscribed: boolean) {
      const group = await readableGroup(actor, idOrPath);
      const label = await labels.find({ projectId: null, groupIds: group.traversal_ids }, labelId);
      if (!label) throw new NotFoundError('Label');
      const changed = await labels.setSubscribed(actor.user.id, label.id, null, subscribed);
      return { group, label, changed };
    },

    /** The labels among `list` the caller is subscribed to, within a project or (null) from a group. */
    async subscribedIds(actor: Actor, list: readonly Label[], projectId: number | null): Promise<Set<number>> {
      if (!actor.user) return new Set();
      return labels.subscribedIds(actor.user.id, list.map((label) => label.id), projectId);
    },

    counts: labels.counts,

    /**
     * The project's labels with these titles; with `create` (the caller may admin_label) the
     * missing ones are made as project labels in GitLab's default colour, else they are ignored
     * (GitLab's Labels::FindOrCreateService).
     */
    async resolveTitles(project: Project, titles: string[], options: { create: boolean }, tx: Queryable): Promise<Label[]> {
      const scope = projectLabelScope(project);
      const found = await labels.byTitles(scope, titles, tx);
      if (!options.create) return found;
      const missing = titles.filter((title) => !found.some((label) => label.title === title));
      for (const title of missing) {
        const invalid = labelTitleError(title);
        if (invalid) throw invalid;
        const id = await labels.insert({ projectId: project.id }, { title, color: DEFAULT_LABEL_COLOR, description: null }, tx);
        found.push((await reload(scope, id, tx))!);
      }
      return found;
    },
    byIds: (project: Project, ids: number[], tx?: Queryable) => labels.byIds(projectLabelScope(project), ids, tx),
    forMergeRequests: labels.forMergeRequests,
    setForMergeRequest: labels.setForMergeRequest,
  };
}

export type LabelsService = ReturnType<typeof createLabelsService>;
