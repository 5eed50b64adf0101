/**
 * Project and group milestones (doc/api/milestones.md, group_milestones.md): reading needs
 * reading the project or group (404 otherwise), managing needs admin_milestone (Reporter and
 * above). A project is offered its own milestones and those of every group above it.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { GroupsService } from '../namespaces/groups.service.js';
import type { Namespace } from '../namespaces/namespace.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { milestoneDatesError, milestoneTitleError, nextState } from './milestone-rules.js';
import type { Milestone, MilestoneFields, MilestoneFilter, MilestoneScope, MilestonesRepository } from './milestones.repository.js';

export interface MilestoneInput {
  title?: string;
  description?: string | null;
  startDate?: string | null;
  dueDate?: string | null;
  stateEvent?: 'close' | 'activate';
}

type Owner = { project: Project } | { group: Namespace };

export const projectMilestoneScope = (project: Project, includeAncestors = true): MilestoneScope => ({
  projectId: project.id,
  groupIds: includeAncestors && project.namespace_kind === 'group' ? project.namespace_traversal_ids : [],
});
const ownScope = (owner: Owner): MilestoneScope => ('project' in owner ? { projectId: owner.project.id, groupIds: [] } : { projectId: null, groupIds: [owner.group.id] });

const titleTaken = () => ValidationError.field('title', 'already being used for another group or project milestone.');

export function createMilestonesService(deps: {
  db: Pick<Database, 'transaction'>;
  milestones: MilestonesRepository;
  projects: Pick<ProjectsService, 'find'>;
  groups: Pick<GroupsService, 'find'>;
  authorizer: Authorizer;
}) {
  const { milestones } = deps;

  async function owner(actor: Actor, kind: 'project' | 'group', idOrPath: string | number): Promise<Owner> {
    const subject: Owner = kind === 'project' ? { project: await deps.projects.find(actor, idOrPath) } : { group: await deps.groups.find(actor, idOrPath) };
    await deps.authorizer.authorize(actor, 'read_milestone', subject);
    return subject;
  }

  async function findOwn(subject: Owner, id: number, tx?: Queryable): Promise<Milestone> {
    const milestone = await milestones.find(ownScope(subject), id, tx);
    if (!milestone) throw new NotFoundError('Milestone');
    return milestone;
  }

  async function uniquely<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (caught) {
      if (isUniqueViolation(caught)) throw titleTaken();
      throw caught;
    }
  }

  return {
    async list(actor: Actor, kind: 'project' | 'group', idOrPath: string | number, filter: MilestoneFilter & { includeAncestors?: boolean }, page: { limit: number; offset: number }) {
      const subject = await owner(actor, kind, idOrPath);
      const scope =
        'project' in subject
          ? projectMilestoneScope(subject.project, filter.includeAncestors ?? false)
          : { projectId: null, groupIds: filter.includeAncestors ? subject.group.traversal_ids : [subject.group.id] };
      return milestones.list(scope, filter, page);
    },

    async get(actor: Actor, kind: 'project' | 'group', idOrPath: string | number, id: number): Promise<Milestone> {
      return findOwn(await owner(actor, kind, idOrPath), id);
    },

    async create(actor: Actor, kind: 'project' | 'group', idOrPath: string | number, input: MilestoneInput): Promise<Milestone> {
      const subject = await owner(actor, kind, idOrPath);
      await deps.authorizer.authorize(actor, 'admin_milestone', subject);
      if (input.title === undefined || input.title === '') throw ValidationError.missing('title');
      const invalid = milestoneTitleError(input.title) ?? milestoneDatesError(input.startDate ?? null, input.dueDate ?? null);
      if (invalid) throw invalid;
      return uniquely(() =>
        deps.db.transaction(async (tx) => {
          const ownerId = 'project' in subject ? { projectId: subject.project.id } : { groupId: subject.group.id };
          const id = await milestones.insert(ownerId, { title: input.title!.trim(), description: input.description ?? null, startDate: input.startDate ?? null, dueDate: input.dueDate ?? null }, tx);
          return findOwn(subject, id, tx);
        }),
      );
    },

    async update(actor: Actor, kind: 'project' | 'group', idOrPath: string | number, id: number, input: MilestoneInput): Promise<Milestone> {
      const subject = await owner(actor, kind, idOrPath);
      const before = await findOwn(subject, id);
      await deps.authorizer.authorize(actor, 'admin_milestone', subject);
      const fields: MilestoneFields = { description: input.description, start_date: input.startDate, due_date: input.dueDate };
      if (input.title !== undefined) {
        const invalid = milestoneTitleError(input.title);
        if (invalid) throw invalid;
        fields.title = input.title.trim();
      }
      const dates = milestoneDatesError(input.startDate === undefined ? before.start_date : input.startDate, input.dueDate === undefined ? before.due_date : input.dueDate);
      if (dates) throw dates;
      const state = nextState(before.state, input.stateEvent);
      if (state !== before.state) fields.state = state;
      return uniquely(async () => {
        await milestones.update(id, fields);
        return findOwn(subject, id);
      });
    },

    async remove(actor: Actor, kind: 'project' | 'group', idOrPath: string | number, id: number): Promise<void> {
      const subject = await owner(actor, kind, idOrPath);
      await findOwn(subject, id);
      await deps.authorizer.authorize(actor, 'admin_milestone', subject);
      await milestones.remove(id);
    },

    /**
     * A project milestone becomes a milestone of the project's group (GitLab's
     * Milestones::PromoteService): its merge requests follow. Needs admin_milestone on the group.
     */
    async promote(actor: Actor, idOrPath: string | number, id: number): Promise<Milestone> {
      const subject = await owner(actor, 'project', idOrPath);
      if (!('project' in subject)) throw new NotFoundError('Project');
      const milestone = await findOwn(subject, id);
      await deps.authorizer.authorize(actor, 'admin_milestone', subject);
      if (subject.project.namespace_kind !== 'group') throw new ValidationError('Promotion failed - Project does not belong to a group.');
      const group = await deps.groups.find(actor, subject.project.namespace_id);
      await deps.authorizer.authorize(actor, 'admin_milestone', { group });
      return uniquely(() =>
        deps.db.transaction(async (tx) => {
          const newId = await milestones.insert({ groupId: group.id }, { title: milestone.title, description: milestone.description, startDate: milestone.start_date, dueDate: milestone.due_date }, tx);
          if (milestone.state === 'closed') await milestones.update(newId, { state: 'closed' }, tx);
          await milestones.replace(milestone.id, newId, tx);
          return (await milestones.find({ projectId: null, groupIds: [group.id] }, newId, tx))!;
        }),
      );
    },

    /** A milestone the project may use (its own or its groups'), or undefined. */
    available: (project: Project, id: number, tx?: Queryable) => milestones.find(projectMilestoneScope(project), id, tx),
    byIds: milestones.byIds,
    findByReference: milestones.findByReference,
  };
}

export type MilestonesService = ReturnType<typeof createMilestonesService>;
