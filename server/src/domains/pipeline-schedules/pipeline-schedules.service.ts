/**
 * Pipeline schedules as the REST API serves them (GitLab's doc/api/pipeline_schedules.md): every
 * call finds the project (404 when the caller may not see it) and asks the one permission
 * function. Reporters see schedules; Developers create them and edit their own; Maintainers edit
 * any and take ownership. Variable values are shown to those who may edit the schedule.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { canUpdatePipelineSchedule, type ProjectAction } from '../../auth/permissions.js';
import { resolveCommit } from '../../git/refs.js';
import type { Queryable } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/queue.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { User } from '../users/user.js';
import { usersByIds } from '../users/users.repository.js';
import { cronErrors, nextRunAt } from './cron.js';
import type { PipelineScheduleRow, ScheduleVariable } from './pipeline-schedule.js';
import type { PipelineSchedulesRepository, ScheduleFields } from './pipeline-schedules.repository.js';

export const RUN_SCHEDULE_JOB = 'pipelines.run_schedule';

export interface ScheduleInput {
  description?: string;
  ref?: string;
  cron?: string;
  cron_timezone?: string;
  active?: boolean;
}

/** GitLab's variable key rule. */
const KEY = /^[a-zA-Z0-9_]{1,255}$/;

export function createPipelineSchedulesService(deps: {
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize' | 'can' | 'abilities'>;
  schedules: PipelineSchedulesRepository;
  pipelines: Pick<PipelinesRepository, 'pipelinesByIds' | 'listPipelines'>;
  pipelineRules: Pick<PipelinesService, 'refusalToCreate'>;
  queue: Pick<JobQueue, 'enqueue'>;
  repoPath: (projectId: number) => string;
  db: Queryable;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const repo = deps.schedules;

  async function open(actor: Actor, idOrPath: string | number, action: ProjectAction): Promise<Project> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, action, { project });
    return project;
  }

  async function scheduleFor(project: Project, id: number): Promise<PipelineScheduleRow> {
    const schedule = await repo.find(project.id, id);
    if (!schedule) throw new NotFoundError('Pipeline Schedule');
    return schedule;
  }

  async function mayUpdate(actor: Actor, project: Project, schedule: PipelineScheduleRow): Promise<boolean> {
    const abilities = (await deps.authorizer.abilities(actor, { project })) as ReadonlySet<ProjectAction>;
    return canUpdatePipelineSchedule(abilities, actor.user !== null && schedule.owner_id === actor.user.id);
  }

  async function openToUpdate(actor: Actor, idOrPath: string | number, id: number) {
    const project = await open(actor, idOrPath, 'read_pipeline_schedule');
    const schedule = await scheduleFor(project, id);
    if (!(await mayUpdate(actor, project, schedule))) throw new ForbiddenError();
    return { project, schedule };
  }

  /**
   * The ref as GitLab stores it: a full `refs/heads/…` or `refs/tags/…` is kept; a short name
   * becomes the branch's or the tag's full ref, and one that is both is ambiguous.
   */
  async function expandRef(project: Project, ref: string): Promise<string> {
    if (/^refs\/(heads|tags)\/./.test(ref)) return ref;
    const repoPath = deps.repoPath(project.id);
    const branch = (await resolveCommit(repoPath, `refs/heads/${ref}`)) !== null;
    const tag = (await resolveCommit(repoPath, `refs/tags/${ref}`)) !== null;
    if (branch && tag) throw ValidationError.field('ref', 'is ambiguous');
    if (branch) return `refs/heads/${ref}`;
    if (tag) return `refs/tags/${ref}`;
    return ref;
  }

  /** The fields after `input`, validated as GitLab validates them, with next_run_at computed. */
  async function fieldsFrom(project: Project, base: ScheduleFields | null, input: ScheduleInput): Promise<ScheduleFields> {
    const description = input.description ?? base?.description ?? '';
    const cron = input.cron ?? base?.cron ?? '';
    const cronTimezone = input.cron_timezone ?? base?.cronTimezone ?? 'UTC';
    const ref = input.ref !== undefined ? await expandRef(project, input.ref) : (base?.ref ?? '');
    const errors: Record<string, string[]> = {};
    if (description.trim() === '') errors.description = ["can't be blank"];
    if (ref.trim() === '') errors.ref = ["can't be blank"];
    else if (!/^refs\/(heads|tags)\/./.test(ref)) errors.ref = ['is invalid'];
    Object.assign(errors, cron.trim() === '' ? { cron: ["can't be blank"] } : {}, cronErrors(cron, cronTimezone));
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    return { description, ref, cron, cronTimezone, active: input.active ?? base?.active ?? true, nextRunAt: nextRunAt(cron, cronTimezone, now()) };
  }

  const asFields = (s: PipelineScheduleRow): ScheduleFields => ({ description: s.description, ref: s.ref, cron: s.cron, cronTimezone: s.cron_timezone, active: s.active, nextRunAt: s.next_run_at });

  /** What the entities show beside the rows: owners, last pipelines, and variables where the caller may see them. */
  async function details(actor: Actor, project: Project, schedule: PipelineScheduleRow) {
    const [owners, lastIds] = await Promise.all([usersByIds(deps.db, [schedule.owner_id]), repo.lastPipelineIds([schedule.id])]);
    const lastId = lastIds.get(schedule.id);
    const lastPipeline = lastId === undefined ? null : ((await deps.pipelines.pipelinesByIds([lastId])).get(lastId) ?? null);
    const variables = (await mayUpdate(actor, project, schedule)) ? await repo.variables(schedule.id) : null;
    return { project, schedule, owner: ownerOf(owners, schedule), lastPipeline, variables };
  }

  const ownerOf = (owners: Map<number, User>, schedule: PipelineScheduleRow) => (schedule.owner_id === null ? null : (owners.get(schedule.owner_id) ?? null));

  async function variableScheduleFor(actor: Actor, idOrPath: string | number, id: number) {
    return (await openToUpdate(actor, idOrPath, id)).schedule;
  }

  return {
    async list(actor: Actor, idOrPath: string | number, filter: { active?: boolean; limit: number; offset: number }) {
      const project = await open(actor, idOrPath, 'read_pipeline_schedule');
      const result = await repo.list(project.id, filter);
      const owners = await usersByIds(deps.db, result.schedules.map((s) => s.owner_id));
      return { project, total: result.total, schedules: result.schedules.map((schedule) => ({ schedule, owner: ownerOf(owners, schedule) })) };
    },

    async get(actor: Actor, idOrPath: string | number, id: number) {
      const project = await open(actor, idOrPath, 'read_pipeline_schedule');
      return details(actor, project, await scheduleFor(project, id));
    },

    async create(actor: Actor, idOrPath: string | number, input: ScheduleInput) {
      const project = await open(actor, idOrPath, 'create_pipeline_schedule');
      const fields = await fieldsFrom(project, null, input);
      return details(actor, project, await repo.insert(project.id, actor.user!.id, fields));
    },

    async update(actor: Actor, idOrPath: string | number, id: number, input: ScheduleInput) {
      const { project, schedule } = await openToUpdate(actor, idOrPath, id);
      const fields = await fieldsFrom(project, asFields(schedule), input);
      return details(actor, project, await repo.update(schedule.id, fields));
    },

    /** Maintainers take a schedule over: later runs are theirs (GitLab's take_ownership). */
    async takeOwnership(actor: Actor, idOrPath: string | number, id: number) {
      const project = await open(actor, idOrPath, 'read_pipeline_schedule');
      const schedule = await scheduleFor(project, id);
      await deps.authorizer.authorize(actor, 'admin_pipeline_schedule', { project });
      return details(actor, project, await repo.setOwner(schedule.id, actor.user!.id));
    },

    async remove(actor: Actor, idOrPath: string | number, id: number): Promise<void> {
      const { schedule } = await openToUpdate(actor, idOrPath, id);
      await repo.remove(schedule.id);
    },

    /**
     * Runs the schedule now, as the caller (GitLab's play): a job creates the pipeline; the next
     * scheduled run stays where it is. The caller must be allowed to run a pipeline on its ref.
     */
    async play(actor: Actor, idOrPath: string | number, id: number): Promise<void> {
      const project = await open(actor, idOrPath, 'read_pipeline_schedule');
      const schedule = await scheduleFor(project, id);
      const ref = splitRef(schedule.ref);
      if (!ref || (await deps.pipelineRules.refusalToCreate(actor, project, ref.name, ref.tag)) !== null) throw new ForbiddenError();
      await deps.queue.enqueue(RUN_SCHEDULE_JOB, { scheduleId: schedule.id, userId: actor.user!.id });
    },

    async pipelines(actor: Actor, idOrPath: string | number, id: number, page: { limit: number; offset: number; sort: 'asc' | 'desc' }) {
      const project = await open(actor, idOrPath, 'read_pipeline_schedule');
      await deps.authorizer.authorize(actor, 'read_pipeline', { project });
      const schedule = await scheduleFor(project, id);
      const result = await deps.pipelines.listPipelines({ projectId: project.id, pipelineScheduleId: schedule.id, orderBy: 'id', sort: page.sort, limit: page.limit, offset: page.offset });
      return { project, ...result };
    },

    async createVariable(actor: Actor, idOrPath: string | number, id: number, variable: ScheduleVariable): Promise<ScheduleVariable> {
      const schedule = await variableScheduleFor(actor, idOrPath, id);
      if (!KEY.test(variable.key)) throw ValidationError.field('key', "can contain only letters, digits and '_'.");
      const created = await repo.insertVariable(schedule.id, variable);
      if (!created) throw ValidationError.field('key', 'has already been taken');
      return created;
    },

    async updateVariable(actor: Actor, idOrPath: string | number, id: number, key: string, changes: { value?: string; variable_type?: ScheduleVariable['variable_type'] }) {
      const schedule = await variableScheduleFor(actor, idOrPath, id);
      const updated = await repo.updateVariable(schedule.id, key, changes);
      if (!updated) throw new NotFoundError('Variable');
      return updated;
    },

    async deleteVariable(actor: Actor, idOrPath: string | number, id: number, key: string): Promise<ScheduleVariable> {
      const schedule = await variableScheduleFor(actor, idOrPath, id);
      const removed = await repo.deleteVariable(schedule.id, key);
      if (!removed) throw new NotFoundError('Variable');
      return removed;
    },
  };
}

/** `refs/heads/x` → branch x, `refs/tags/x` → tag x; null for anything else. */
export function splitRef(ref: string): { name: string; tag: boolean } | null {
  if (ref.startsWith('refs/heads/') && ref.length > 11) return { name: ref.slice(11), tag: false };
  if (ref.startsWith('refs/tags/') && ref.length > 10) return { name: ref.slice(10), tag: true };
  return null;
}

export type PipelineSchedulesService = ReturnType<typeof createPipelineSchedulesService>;
