import type { Database, Queryable } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError, nullIfNotFound, UnauthorizedError } from '../../platform/errors.js';
import { actorFor, type Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { canUpdateMergeRequest, type ProjectAction } from '../../auth/permissions.js';
import { readRef } from '../../git/index.js';
import type { ForksRepository } from '../forks/forks.repository.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import { draftlessTitle, isDraftTitle, titleWithDraft } from './draft.js';
import type { MergeRequestListFilter, Viewer } from './list-filter.js';
import type { OpenedMergeRequest } from './merge-request.js';
import { branchNameError, descriptionError, duplicateError, missingBranchError, notAForkError, sameBranchError, titleError, userCountError } from './merge-request-rules.js';
import { applyMetadata, hasMetadata, type MetadataDeps, type MetadataInput } from './merge-request-metadata.js';
import type { MergeRequestVersions } from './merge-request-versions.service.js';
import type { Mergeability } from './mergeability/index.js';
import type { MergeRequestFields, MergeRequestsRepository } from './merge-requests.repository.js';

export interface CreateMergeRequestInput extends MetadataInput {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description?: string;
  targetProjectId?: string | number;
  assigneeIds?: number[];
  reviewerIds?: number[];
  removeSourceBranch?: boolean;
  squash?: boolean;
  allowCollaboration?: boolean;
  draft?: boolean;
}

export interface UpdateMergeRequestInput extends MetadataInput {
  title?: string;
  description?: string;
  targetBranch?: string;
  draft?: boolean;
  assigneeIds?: number[];
  reviewerIds?: number[];
  stateEvent?: 'close' | 'reopen';
  squash?: boolean;
  removeSourceBranch?: boolean;
  allowCollaboration?: boolean;
  discussionLocked?: boolean;
}

export type { OpenedMergeRequest } from './merge-request.js';

/** A list's filter (with the project, once authorized) and the viewer whose visibility filters its rows. */
export interface MergeRequestListScope {
  filter: MergeRequestListFilter;
  viewer: Viewer;
}

type SignedIn = Actor & { user: NonNullable<Actor['user']> };

/**
 * Creating, reading, listing and updating merge requests (doc/api/merge_requests.md).
 * Versions and refs are kept by MergeRequestVersions; rules and messages are in the pure
 * files beside this one.
 */
export function createMergeRequestsService(deps: {
  db: Pick<Database, 'transaction'>;
  mergeRequests: MergeRequestsRepository;
  forks: Pick<ForksRepository, 'networkRoot'>;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Authorizer;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  versions: Pick<MergeRequestVersions, 'recordOrSchedule'>;
  /** keeps each new description as a version (domains/description-versions/); returns its id */
  descriptionVersions?: { record(input: { mergeRequestId: number; authorId: number; previous: string; next: string; openedAt: Date }, tx: Queryable): Promise<number> };
  /** announces `merge_request.changed` (open widgets refetch: title, draft, state, assignees) */
  mergeability?: Pick<Mergeability, 'publishChanged'>;
  /** labels and milestones (merge-request-metadata.ts) */
  metadata?: Omit<MetadataDeps, 'mergeRequests'>;
}) {
  const { mergeRequests } = deps;
  const signedIn = (actor: Actor): SignedIn => {
    if (!actor.user) throw new UnauthorizedError();
    return actor as SignedIn;
  };
  const branchExists = async (projectId: number, branch: string) => (await readRef(deps.storage.pathFor(projectId), `refs/heads/${branch}`)) !== null;

  /** The project and merge request; 404 when the caller may not see either (the project shows code). */
  /**
   * What a list shows and to whom: project lists need read_merge_request on it (403 when the
   * project is visible but its code is not); rows are then filtered by what the viewer may see.
   */
  async function listScope(actor: Actor, filter: MergeRequestListFilter, projectIdOrPath?: string | number): Promise<MergeRequestListScope> {
    let project: Project | undefined;
    if (projectIdOrPath !== undefined) {
      project = await deps.projects.find(actor, projectIdOrPath);
      await deps.authorizer.authorize(actor, 'read_merge_request', { project });
    }
    return { filter: { ...filter, projectId: project?.id }, viewer: { userId: actor.user?.id ?? null, isAdmin: actor.user?.is_admin === true } };
  }

  async function list(actor: Actor, filter: MergeRequestListFilter, page: { limit: number; offset: number }, projectIdOrPath?: string | number) {
    const scope = await listScope(actor, filter, projectIdOrPath);
    return mergeRequests.list(scope.filter, scope.viewer, page);
  }

  async function open(actor: Actor, idOrPath: string | number, iid: number): Promise<OpenedMergeRequest> {
    const project = await deps.projects.find(actor, idOrPath);
    const abilities = (await deps.authorizer.abilities(actor, { project })) as Set<ProjectAction>;
    const mergeRequest = abilities.has('read_merge_request') ? await mergeRequests.findByIid(project.id, iid) : undefined;
    if (!mergeRequest) throw new NotFoundError('Merge Request');
    return { project, mergeRequest, abilities };
  }

  /**
   * Sets the assignees or reviewers and, when the set of people changed, records the event
   * (usernames before and after, space-separated) that becomes GitLab's "assigned to @x" or
   * "requested review from @x" note.
   */
  async function replacePeople(field: 'assignees' | 'reviewers', mergeRequestId: number, userIds: number[], actorId: number, tx: Queryable): Promise<void> {
    const usernames = async () => ((await mergeRequests[field]([mergeRequestId], tx)).get(mergeRequestId) ?? []).map((person) => person.username);
    const before = await usernames();
    await (field === 'assignees' ? mergeRequests.setAssignees : mergeRequests.setReviewers)(mergeRequestId, userIds, tx);
    const after = await usernames();
    const same = before.length === after.length && before.every((name) => after.includes(name));
    if (!same) await mergeRequests.recordEvent(mergeRequestId, actorId, field, { from: before.join(' '), to: after.join(' ') }, tx);
  }

  /** GitLab drops assignees and reviewers who could not read the merge request. */
  async function eligibleUsers(field: 'assignees' | 'reviewers', project: Project, ids: number[] | undefined): Promise<number[] | undefined> {
    if (ids === undefined) return undefined;
    const unique = [...new Set(ids.filter((id) => id > 0))];
    const error = userCountError(field, unique.length);
    if (error) throw error;
    const users = await mergeRequests.usersByIds(unique);
    const allowed: number[] = [];
    for (const id of unique) {
      const user = users.get(id);
      if (user && user.state === 'active' && (await deps.authorizer.can(actorFor(user, 'session'), 'read_merge_request', { project }))) allowed.push(id);
    }
    return allowed;
  }

  /** Labels and milestone from the request, when the caller may set them (GitLab's set_merge_request_metadata). */
  async function metadata(project: Project, abilities: Set<ProjectAction>, target: { mergeRequestId: number; milestoneId: number | null; userId: number }, input: MetadataInput, tx: Queryable): Promise<boolean> {
    if (!deps.metadata || !hasMetadata(input) || !abilities.has('update_merge_request')) return false;
    return applyMetadata({ ...deps.metadata, mergeRequests }, { ...target, project, mayCreateLabels: abilities.has('admin_label') }, input, tx);
  }

  async function assertNoDuplicate(key: { targetProjectId: number; sourceProjectId: number; sourceBranch: string; targetBranch: string }, exceptId: number | null, tx?: Queryable): Promise<void> {
    const duplicate = await mergeRequests.findOpenDuplicate(key, exceptId, tx);
    if (duplicate) throw duplicateError(duplicate.iid);
  }

  /** The partial unique index lost a race: answer as the check would have. */
  async function rethrowDuplicate(caught: unknown, key: Parameters<typeof assertNoDuplicate>[0], exceptId: number | null): Promise<never> {
    if (isUniqueViolation(caught)) await assertNoDuplicate(key, exceptId);
    throw caught;
  }

  return {
    open,

    async create(actor: Actor, sourceIdOrPath: string | number, input: CreateMergeRequestInput): Promise<OpenedMergeRequest> {
      const user = signedIn(actor).user;
      // POST /projects/:id/merge_requests names the SOURCE project; target_project_id the target.
      const source = await deps.projects.find(actor, sourceIdOrPath);
      const target = input.targetProjectId === undefined || String(input.targetProjectId) === String(source.id) ? source : await deps.projects.find(actor, input.targetProjectId);
      await deps.authorizer.authorize(actor, 'create_merge_request_from', { project: source });
      await deps.authorizer.authorize(actor, 'create_merge_request_in', { project: target });
      const title = titleWithDraft(input.title, input.draft);
      const invalid = titleError(title) ?? descriptionError(input.description ?? '') ?? branchNameError('source_branch', input.sourceBranch) ?? branchNameError('target_branch', input.targetBranch);
      if (invalid) throw invalid;
      if (source.id !== target.id && (await deps.forks.networkRoot(source.id)) !== (await deps.forks.networkRoot(target.id))) throw notAForkError();
      const key = { targetProjectId: target.id, sourceProjectId: source.id, sourceBranch: input.sourceBranch, targetBranch: input.targetBranch };
      const same = sameBranchError(key);
      if (same) throw same;
      if (!(await branchExists(source.id, input.sourceBranch))) throw missingBranchError('source', input.sourceBranch);
      if (!(await branchExists(target.id, input.targetBranch))) throw missingBranchError('target', input.targetBranch);
      const assignees = await eligibleUsers('assignees', target, input.assigneeIds);
      const reviewers = await eligibleUsers('reviewers', target, input.reviewerIds);

      const targetAbilities = (await deps.authorizer.abilities(actor, { project: target })) as Set<ProjectAction>;
      let id: number;
      try {
        id = await deps.db.transaction(async (tx) => {
          await assertNoDuplicate(key, null, tx);
          const newId = await mergeRequests.insert(
            {
              iid: await mergeRequests.allocateIid(target.id, tx),
              ...key,
              title,
              description: input.description ?? '',
              draft: isDraftTitle(title),
              authorId: user.id,
              allowCollaboration: input.allowCollaboration ?? false,
              squash: input.squash ?? false,
              forceRemoveSourceBranch: input.removeSourceBranch ?? false,
            },
            tx,
          );
          if (assignees) await mergeRequests.setAssignees(newId, assignees, tx);
          if (reviewers) await mergeRequests.setReviewers(newId, reviewers, tx);
          await mergeRequests.recordEvent(newId, user.id, 'opened', {}, tx);
          await metadata(target, targetAbilities, { mergeRequestId: newId, milestoneId: null, userId: user.id }, input, tx);
          return newId;
        });
      } catch (caught) {
        return rethrowDuplicate(caught, key, null);
      }
      await deps.versions.recordOrSchedule((await mergeRequests.findById(id))!, { userId: user.id });
      const mergeRequest = (await mergeRequests.findById(id))!;
      return { project: target, mergeRequest, abilities: (await deps.authorizer.abilities(actor, { project: target })) as Set<ProjectAction> };
    },

    async update(actor: Actor, idOrPath: string | number, iid: number, input: UpdateMergeRequestInput): Promise<OpenedMergeRequest> {
      async function mayPushToSource(caller: Actor, { project, mergeRequest, abilities }: OpenedMergeRequest): Promise<boolean> {
        const sourceId = mergeRequest.source_project_id;
        if (sourceId === null) return false;
        if (sourceId === project.id) return abilities.has('push_code');
        const source = await deps.projects.find(caller, sourceId).catch(nullIfNotFound);
        return source !== null && (await deps.authorizer.can(caller, 'push_code', { project: source }));
      }

      const user = signedIn(actor).user;
      const opened = await open(actor, idOrPath, iid);
      const { project, mergeRequest: before } = opened;
      if (!canUpdateMergeRequest(opened.abilities, before.author_id === user.id)) throw new ForbiddenError();

      const fields: MergeRequestFields = {};
      const title = input.title !== undefined || input.draft !== undefined ? titleWithDraft(input.title ?? before.title, input.draft) : undefined;
      if (title !== undefined) {
        const error = titleError(title);
        if (error) throw error;
        fields.title = title;
        fields.draft = isDraftTitle(title);
      }
      if (input.description !== undefined) {
        const error = descriptionError(input.description);
        if (error) throw error;
        fields.description = input.description;
      }
      fields.squash = input.squash;
      // GitLab's filter_params: the setting opens the source branch to others, so only someone
      // who can push to the source project changes it; anyone else's value is ignored.
      if (input.allowCollaboration !== undefined && (await mayPushToSource(actor, opened))) fields.allow_collaboration = input.allowCollaboration;
      fields.force_remove_source_branch = input.removeSourceBranch;
      if (input.discussionLocked !== undefined) {
        if (!opened.abilities.has('update_merge_request')) throw new ForbiddenError();
        fields.discussion_locked = input.discussionLocked;
      }
      const retarget = input.targetBranch !== undefined && input.targetBranch !== before.target_branch ? input.targetBranch : undefined;
      const reopening = input.stateEvent === 'reopen' && before.state === 'closed';
      const closing = input.stateEvent === 'close' && before.state === 'opened';
      const key = {
        targetProjectId: project.id,
        sourceProjectId: before.source_project_id ?? 0,
        sourceBranch: before.source_branch,
        targetBranch: retarget ?? before.target_branch,
      };
      if (retarget !== undefined) {
        const invalid = branchNameError('target_branch', retarget) ?? sameBranchError(key);
        if (invalid) throw invalid;
        if (!(await branchExists(project.id, retarget))) throw missingBranchError('target', retarget);
        fields.target_branch = retarget;
        fields.retargeted = true;
      }
      // GitLab reopens only while the source still exists (MergeRequest#reopenable?).
      const reopen = reopening && before.source_project_id !== null && (await branchExists(before.source_project_id, before.source_branch));
      if (closing) Object.assign(fields, { state: 'closed', closed_at: new Date(), closed_by_id: user.id } satisfies MergeRequestFields);
      if (reopen) Object.assign(fields, { state: 'opened', closed_at: null, closed_by_id: null } satisfies MergeRequestFields);

      const assignees = await eligibleUsers('assignees', project, input.assigneeIds);
      const reviewers = await eligibleUsers('reviewers', project, input.reviewerIds);
      try {
        await deps.db.transaction(async (tx) => {
          await mergeRequests.lock(before.id, tx);
          if ((retarget !== undefined && (before.state === 'opened' || reopen)) || reopen) await assertNoDuplicate(key, before.id, tx);
          await mergeRequests.update(before.id, fields, tx);
          if (assignees) await replacePeople('assignees', before.id, assignees, user.id, tx);
          if (reviewers) await replacePeople('reviewers', before.id, reviewers, user.id, tx);
          if (assignees || reviewers) await mergeRequests.touch(before.id, tx);
          if (retarget !== undefined) await mergeRequests.recordEvent(before.id, user.id, 'retargeted', { from: before.target_branch, to: retarget }, tx);
          // A change of the draft prefix alone is the draft/ready event below, not a title change (GitLab's notes).
          if (fields.title !== undefined && draftlessTitle(fields.title) !== draftlessTitle(before.title)) await mergeRequests.recordEvent(before.id, user.id, 'title', { from: before.title, to: fields.title }, tx);
          // A changed description is a version and an event ("changed the description" links the version).
          if (fields.description !== undefined && fields.description !== before.description && deps.descriptionVersions) {
            const versionId = await deps.descriptionVersions.record({ mergeRequestId: before.id, authorId: user.id, previous: before.description, next: fields.description, openedAt: before.created_at }, tx);
            await mergeRequests.recordEvent(before.id, user.id, 'description', { to: String(versionId) }, tx);
          }
          if (fields.draft !== undefined && fields.draft !== before.draft) await mergeRequests.recordEvent(before.id, user.id, fields.draft ? 'draft' : 'ready', {}, tx);
          if (closing) await mergeRequests.recordEvent(before.id, user.id, 'closed', {}, tx);
          if (reopen) await mergeRequests.recordEvent(before.id, user.id, 'reopened', {}, tx);
          if (await metadata(project, opened.abilities, { mergeRequestId: before.id, milestoneId: before.milestone_id, userId: user.id }, input, tx)) await mergeRequests.touch(before.id, tx);
          await deps.mergeability?.publishChanged([before], tx);
        });
      } catch (caught) {
        return rethrowDuplicate(caught, key, before.id);
      }
      let mergeRequest = (await mergeRequests.findById(before.id))!;
      // A new target or a reopened request gets a version against the branches as they are now.
      if (retarget !== undefined || reopen) {
        await deps.versions.recordOrSchedule(mergeRequest, { retargeted: retarget !== undefined, userId: user.id });
        mergeRequest = (await mergeRequests.findById(before.id))!;
      }
      return { ...opened, mergeRequest };
    },

    /**
     * DELETE …/merge_requests/:iid: owners and administrators only (403 for others who see it,
     * 404 for those who do not). Open widgets and the requests it blocked hear of it.
     */
    async remove(actor: Actor, idOrPath: string | number, iid: number): Promise<void> {
      signedIn(actor);
      const opened = await open(actor, idOrPath, iid);
      if (!opened.abilities.has('destroy_merge_request')) throw new ForbiddenError();
      await deps.db.transaction(async (tx) => {
        await mergeRequests.lock(opened.mergeRequest.id, tx);
        const blocked = await mergeRequests.blockedBy(opened.mergeRequest.id, tx);
        await deps.mergeability?.publishChanged([opened.mergeRequest, ...blocked], tx);
        await mergeRequests.remove(opened.mergeRequest.id, tx);
      });
    },

    list,
    listScope,
    /** One page of a list whose scope listScope has checked. */
    listPage: (scope: MergeRequestListScope, page: { limit: number; offset: number }) => mergeRequests.list(scope.filter, scope.viewer, page),
  };
}

export type MergeRequestsService = ReturnType<typeof createMergeRequestsService>;
