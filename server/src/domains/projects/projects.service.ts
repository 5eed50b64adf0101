import { VISIBILITIES, type Visibility, AccessLevel } from '@tributary/contracts';
import type { Database, Queryable } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import type { JobPayloadMap, JobQueue } from '../../platform/queue.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { validateBranchName } from '../../git/ref-names.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import { pathError, pathFromName, type Namespace } from '../namespaces/namespace.js';
import { projectVisibilityErrors } from '../namespaces/visibility-rules.js';
import type { MembersRepository } from '../members/members.repository.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import type { ProjectListFilter, ProjectsRepository } from './projects.repository.js';
import type { RepositoryStorage } from './repository-storage.js';
import { mergeTextSettings } from './merge-settings.js';
import { defaultFeatureLevels, featureSettings } from './project-features.js';
import { EDITABLE_SETTINGS, type Project } from './project.js';

export const REMOVE_REPOSITORY_JOB = 'repository.remove' satisfies keyof JobPayloadMap;

export interface CreateProjectInput {
  name?: string;
  path?: string;
  namespace_id?: number | string;
  description?: string;
  visibility?: string;
  default_branch?: string;
  initialize_with_readme?: boolean;
  /** feature levels, legacy booleans and public_jobs (project-features.ts) */
  [feature: string]: unknown;
}

export interface UpdateProjectInput {
  name?: string;
  path?: string;
  description?: string;
  visibility?: string;
  default_branch?: string;
  archived?: boolean;
  [setting: string]: unknown;
}

export function createProjectsService(deps: {
  db: Pick<Database, 'transaction'>;
  projects: ProjectsRepository;
  namespaces: Pick<NamespacesRepository, 'findById' | 'findByFullPath' | 'findUserNamespace' | 'routeTaken' | 'visibilityForShare'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'protectDefault'>;
  members: Pick<MembersRepository, 'insert'>;
  storage: RepositoryStorage;
  authorizer: Authorizer;
  queue: Pick<JobQueue, 'enqueue'>;
  events: Pick<EventBus, 'publish'>;
}) {
  /** Finds a project by numeric id or full path; 404 when absent or not visible to the actor. */
  /**
   * The visibility rule (visibility-rules.ts) for a change of `project` to `level`, inside the
   * changing transaction: the group is read FOR SHARE, so a concurrent change of the group's
   * visibility (which locks it FOR UPDATE) cannot pass this one.
   */
  async function assertVisibilityAllowed(project: Project, level: Visibility, tx: Queryable): Promise<void> {
    const group = project.namespace_kind === 'group' ? ((await deps.namespaces.visibilityForShare(project.namespace_id, tx)) ?? null) : null;
    const source = project.forked_from_id === null ? undefined : await deps.projects.findById(project.forked_from_id, tx);
    const errors = projectVisibilityErrors(level, { group, forkSource: source && !source.pending_delete ? source.visibility : null });
    if (errors.length > 0) throw new ValidationError({ visibility_level: errors });
  }

  async function find(actor: Actor, idOrPath: string | number): Promise<Project> {
    const key = /^\d+$/.test(String(idOrPath)) ? { id: Number(idOrPath) } : { fullPath: String(idOrPath) };
    // digits beyond any id (a web route's full path can be all digits too): no such project
    if ('id' in key && !Number.isSafeInteger(key.id)) throw new NotFoundError('Project');
    const found = await deps.projects.findForViewer(key, actor.user?.id ?? null);
    if (!found) throw new NotFoundError('Project');
    // The row stays as it came (its extra viewer_access_level is never rendered): copying a
    // 40-column row with a rest pattern is a V8 slow path on the hottest request there is.
    const level = found.viewer_access_level;
    const project: Project = found;
    // The row came with the viewer's access level: later checks in this request need no query.
    deps.authorizer.remember(actor, { project }, level);
    if (!(await deps.authorizer.canRead(actor, { project }))) throw new NotFoundError('Project');
    return project;
  }

  async function targetNamespace(actor: Actor, namespaceId: number | string | undefined): Promise<Namespace> {
    if (namespaceId === undefined || namespaceId === null || namespaceId === '') {
      const own = await deps.namespaces.findUserNamespace(actor.user!.id);
      if (!own) throw new NotFoundError('Namespace');
      return own;
    }
    const ns = /^\d+$/.test(String(namespaceId))
      ? await deps.namespaces.findById(Number(namespaceId))
      : await deps.namespaces.findByFullPath(String(namespaceId));
    if (!ns || !(await deps.authorizer.canRead(actor, { group: ns }))) throw new NotFoundError('Namespace');
    await deps.authorizer.authorize(actor, 'create_projects', { group: ns });
    return ns;
  }

  async function scheduleRemoval(projectIds: number[], tx: Queryable): Promise<void> {
    for (const projectId of projectIds) {
      await deps.queue.enqueue(REMOVE_REPOSITORY_JOB, { projectId }, { tx });
      await deps.events.publish('project.deleted', { projectId }, tx);
    }
  }

  return {
    find,
    scheduleRemoval,
    async create(actor: Actor, input: CreateProjectInput): Promise<Project> {
      if (!actor.user) throw new NotFoundError();
      if (!input.name && !input.path) throw new ValidationError('400 (Bad request) "name" or "path" not given');
      const name = input.name ?? input.path!;
      const path = input.path ?? pathFromName(name);
      const error = pathError(path);
      if (error) throw ValidationError.field('path', error);
      if (name.length > 255) throw ValidationError.field('name', 'is too long (maximum is 255 characters)');
      const visibility = (input.visibility ?? 'private') as Visibility;
      if (!VISIBILITIES.includes(visibility)) throw ValidationError.field('visibility', 'does not have a valid value');
      const defaultBranch = input.default_branch ?? 'main';
      const branchError = validateBranchName(defaultBranch);
      if (branchError) throw ValidationError.field('default_branch', branchError);
      // Feature levels are judged against GitLab's defaults for a new project of this visibility.
      const features = { ...defaultFeatureLevels(visibility), ...featureSettings(input, defaultFeatureLevels(visibility)) };
      const namespace = await targetNamespace(actor, input.namespace_id);
      const visibilityErrors = projectVisibilityErrors(visibility, { group: namespace.kind === 'group' ? namespace.visibility : null, forkSource: null });
      if (visibilityErrors.length > 0) throw new ValidationError({ visibility_level: visibilityErrors });
      const fullPath = `${namespace.full_path}/${path}`;
      let projectId: number;
      try {
        projectId = await deps.db.transaction(async (tx) => {
          if (await deps.namespaces.routeTaken(fullPath, tx)) {
            throw new ValidationError({ name: ['has already been taken'], path: ['has already been taken'] });
          }
          const id = await deps.projects.insert(
            {
              namespaceId: namespace.id,
              name,
              path,
              fullPath,
              fullName: `${namespace.full_name} / ${name}`,
              description: input.description ?? '',
              visibility,
              defaultBranch,
              creatorId: actor.user!.id,
            },
            tx,
          );
          await deps.projects.update(id, features, tx);
          // GitLab protects the default branch on creation: Maintainers push and merge, no force push.
          await deps.protectedBranches.protectDefault(id, defaultBranch, tx);
          // The creator is a member: Owner of a personal project, Maintainer of a group project
          // unless the group already gives them that much (GitLab's rule).
          const creatorLevel = namespace.kind === 'user' ? AccessLevel.Owner : AccessLevel.Maintainer;
          const inherited = namespace.kind === 'group' ? await deps.authorizer.accessLevel(actor, { group: namespace }) : 0;
          if (inherited < creatorLevel) {
            await deps.members.insert(
              { kind: 'project', id, traversalIds: [], namespaceOwnerId: null },
              { userId: actor.user!.id, accessLevel: creatorLevel, expiresAt: null, createdById: actor.user!.id },
              tx,
            );
          }
          await deps.events.publish('project.created', { projectId: id }, tx);
          return id;
        });
      } catch (caught) {
        if (isUniqueViolation(caught)) throw new ValidationError({ name: ['has already been taken'], path: ['has already been taken'] });
        throw caught;
      }
      try {
        await deps.storage.create(projectId, defaultBranch);
        if (input.initialize_with_readme) {
          await deps.storage.initializeWithReadme(projectId, {
            branch: defaultBranch,
            content: `# ${name}\n\n${input.description ?? ''}\n`,
            author: { name: actor.user.name, email: actor.user.email },
          });
          await deps.projects.recordPush(projectId, false);
        }
      } catch (caught) {
        // No half-created project: without its repository the row goes too.
        await deps.projects.deleteRow(projectId);
        await deps.storage.remove(projectId).catch(() => undefined);
        throw caught;
      }
      return (await deps.projects.findById(projectId))!;
    },
    async update(actor: Actor, idOrPath: string | number, input: UpdateProjectInput): Promise<Project> {
      const project = await find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'admin_project', { project });
      const fields: Record<string, unknown> = {};
      if (input.name !== undefined) {
        if (input.name.trim() === '') throw ValidationError.field('name', "can't be blank");
        fields.name = input.name;
      }
      if (input.description !== undefined) fields.description = input.description;
      if (input.visibility !== undefined && input.visibility !== project.visibility) {
        await deps.authorizer.authorize(actor, 'change_visibility', { project });
        if (!VISIBILITIES.includes(input.visibility as Visibility)) throw ValidationError.field('visibility', 'does not have a valid value');
        fields.visibility = input.visibility;
      }
      if (input.default_branch !== undefined) {
        const branchError = validateBranchName(input.default_branch);
        if (branchError) throw ValidationError.field('default_branch', branchError);
        fields.default_branch = input.default_branch;
      }
      if (input.archived !== undefined) fields.archived = input.archived;
      // GitLab's 'Change path': the URL changes, the repository (stored by id) does not move.
      const newPath = input.path !== undefined && input.path !== project.path ? input.path : undefined;
      if (newPath !== undefined) {
        const error = pathError(newPath);
        if (error) throw ValidationError.field('path', error);
        fields.path = newPath;
      }
      for (const setting of EDITABLE_SETTINGS) if (input[setting] !== undefined) fields[setting] = input[setting];
      // Templates and the title pattern: validated, empty clears them (replaces the raw values above).
      Object.assign(fields, mergeTextSettings(input, project));
      // Feature levels (validated against the levels the project ends up with); column names from a fixed list.
      Object.assign(fields, featureSettings(input, project));
      await deps.db.transaction(async (tx) => {
        if (fields.visibility !== undefined) await assertVisibilityAllowed(project, fields.visibility as Visibility, tx);
        await deps.projects.update(project.id, fields, tx);
        if (fields.name !== undefined || newPath !== undefined) {
          const ns = (await deps.namespaces.findById(project.namespace_id, tx))!;
          const fullName = `${ns.full_name} / ${String(fields.name ?? project.name)}`;
          if (newPath === undefined) await deps.projects.updateRouteName(project.id, fullName, tx);
          else {
            const fullPath = `${ns.full_path}/${newPath}`;
            if (await deps.namespaces.routeTaken(fullPath, tx)) throw ValidationError.field('path', 'has already been taken');
            await deps.projects.updateRoute(project.id, fullPath, fullName, tx);
          }
        }
      }).catch((caught: unknown) => {
        if (isUniqueViolation(caught)) throw ValidationError.field('path', 'has already been taken');
        throw caught;
      });
      return (await deps.projects.findById(project.id))!;
    },
    /** GitLab answers 202: the row disappears now, the repository is removed by a job. */
    async remove(actor: Actor, idOrPath: string | number): Promise<void> {
      const project = await find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'remove_project', { project });
      await deps.db.transaction(async (tx) => {
        await deps.projects.markPendingDelete([project.id], tx);
        await scheduleRemoval([project.id], tx);
      });
    },
    list(actor: Actor, filter: Omit<ProjectListFilter, 'userId' | 'isAdmin'>) {
      return deps.projects.list({ ...filter, userId: actor.user?.id ?? null, isAdmin: actor.user?.is_admin === true });
    },
    /** The background job behind REMOVE_REPOSITORY_JOB. */
    async removeRepository(projectId: number): Promise<void> {
      await deps.storage.remove(projectId);
      await deps.projects.deleteRow(projectId);
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
