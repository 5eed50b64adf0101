/**
 * Merge trains as callers see them (GitLab's MergeTrains::AddMergeRequestService,
 * AutoMerge::MergeTrainService#cancel, MergeTrains::CarsFinder and the API's permissions):
 * adding a merge request to its target branch's train, removing it, the cars of a project, a
 * merge request's car and its position, and what a merge immediately does to the train.
 *
 * Permissions, as GitLab's API: a caller who may not see the project gets 404; reading trains
 * needs the Developer role (403 below it, and 403 when the project does not run merge trains);
 * adding a car needs the right to merge into the target branch (the merge service's
 * canMerge; 401, as GitLab's unauthorized!).
 */
import { AccessLevel, t } from '@tributary/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import type { MergeRequest, OpenedMergeRequest } from '../merge-requests/merge-request.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import type { PipelineRow } from '../pipelines/pipeline.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { User } from '../users/user.js';
import { MERGE_MESSAGES } from '../merge-requests/merging/merge-messages.js';
import { squashOnMerge } from '../merge-requests/merging/merge-plan.js';
import type { Project } from '../projects/project.js';
import type { AutoMergeService } from '../auto-merge/auto-merge.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { ACTIVE_STATUSES, mergeTrainsEnabled, ON_TRAIN_STATUSES, type Car } from './car.js';
import type { CarListFilter, MergeTrainsRepository } from './merge-trains.repository.js';
import type { TrainRefresh } from './train-refresh.js';
import { trainMembership } from './train-membership.js';

/** The messages of refusals to add a car (GitLab's AddMergeRequestService). */
export const MERGE_TRAIN_MESSAGES = {
  notOpen: 'This merge request cannot be added to the merge train because it is not open',
  draft: 'This merge request cannot be added to the merge train because it is marked as draft',
  noCommits: 'This merge request cannot be added to the merge train because it has no commits',
  alreadyOnTrain: 'This merge request is already on the merge train',
  skipNotAllowed: 'Skipping the merge train is not allowed for this project',
} as const;

export interface CarFacts {
  mergeRequests: Map<number, MergeRequest>;
  pipelines: Map<number, PipelineRow>;
  users: Map<number, User>;
}

export interface AddOptions {
  /** the source head the caller saw: 409 when it is not the head */
  sha?: string;
  squash?: boolean;
  /** `when_pipeline_succeeds` / `auto_merge`: added once its checks pass, when they do not yet */
  whenChecksPass?: boolean;
}

export function createMergeTrainsService(deps: {
  db: Pick<Database, 'transaction'>;
  cars: MergeTrainsRepository;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'accessLevel'>;
  mergeRequestsService: Pick<MergeRequestsService, 'open'>;
  merging: { canMerge(actor: Actor, opened: OpenedMergeRequest): Promise<boolean> };
  refresh: Pick<TrainRefresh, 'enqueueRefresh' | 'note' | 'cancelQuietly' | 'announceTrain'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'usersByIds'>;
  pipelines: Pick<PipelinesRepository, 'pipelineById'>;
  /** auto-merge's add_to_merge_train_when_checks_pass (built before this family) */
  autoMerge: Pick<AutoMergeService, 'addToTrainWhenChecksPass'>;
}) {
  const { cars } = deps;
  const membership = trainMembership(deps);

  /** GitLab's read_merge_train: Developer and above, on a project that runs merge trains. */
  async function authorizeRead(actor: Actor, project: Project): Promise<void> {
    if ((await deps.authorizer.accessLevel(actor, { project })) < AccessLevel.Developer) throw new ForbiddenError();
    if (!mergeTrainsEnabled(project)) throw new ForbiddenError();
  }

  async function openForRead(actor: Actor, idOrPath: string | number, iid: number): Promise<OpenedMergeRequest> {
    const opened = await deps.mergeRequestsService.open(actor, idOrPath, iid);
    await authorizeRead(actor, opened.project);
    return opened;
  }

  /**
   * Puts the merge request at the back of its target branch's train, with the note GitLab writes
   * ("started a merge train" for the first car, its position otherwise). Cars added at once keep
   * one order: the order of their ids. The refresh builds its train commit and pipeline.
   */
  /** Who may add, and what: 403 without trains, 401 without the right to merge, 409 for a stale sha, 400 for a request that cannot board. */
  async function checkAdd(actor: Actor, opened: OpenedMergeRequest, options: AddOptions): Promise<NonNullable<Actor['user']>> {
    const { project, mergeRequest } = opened;
    const user = actor.user;
    if (!user) throw new UnauthorizedError();
    if (!mergeTrainsEnabled(project)) throw new ForbiddenError();
    if (!(await deps.merging.canMerge(actor, opened))) throw new UnauthorizedError();
    if (options.sha !== undefined && options.sha.toLowerCase() !== mergeRequest.head_commit_sha) throw new ConflictError(t(MERGE_MESSAGES.shaMismatch, { sha: mergeRequest.head_commit_sha ?? '' }));
    const refusal = addRefusal(mergeRequest);
    if (refusal) throw new ValidationError(refusal);
    const car = await cars.carOf(mergeRequest.id);
    if (car && ON_TRAIN_STATUSES.includes(car.status)) throw new ValidationError(MERGE_TRAIN_MESSAGES.alreadyOnTrain);
    return user;
  }

  async function add(actor: Actor, opened: OpenedMergeRequest, options: AddOptions = {}): Promise<Car> {
    const { project, mergeRequest } = opened;
    const user = await checkAdd(actor, opened, options);
    try {
      return await deps.db.transaction((tx) =>
        membership.board(
          {
            merge_request_id: mergeRequest.id,
            user_id: user.id,
            target_project_id: project.id,
            target_branch: mergeRequest.target_branch,
            squash: squashOnMerge(project.squash_option, options.squash, mergeRequest.squash),
            source_sha: mergeRequest.head_commit_sha!,
            // GitLab's API takes no messages: the defaults, and the request's own "delete source branch"
            merge_commit_message: null,
            squash_commit_message: null,
            should_remove_source_branch: null,
          },
          tx,
        ),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new ValidationError(MERGE_TRAIN_MESSAGES.alreadyOnTrain);
      throw error;
    }
  }

  /** Takes the car off the train ('Remove from merge train'); the cars behind restart without it. */
  async function remove(actor: Actor, opened: OpenedMergeRequest): Promise<void> {
    const user = actor.user;
    if (!user) throw new UnauthorizedError();
    const car = await cars.carOf(opened.mergeRequest.id);
    if (!car || !ACTIVE_STATUSES.includes(car.status)) throw new NotFoundError('Merge Train Merge Request');
    if (!(await deps.merging.canMerge(actor, opened))) throw new UnauthorizedError();
    const removed = await deps.db.transaction((tx) => membership.leave(car, user.id, tx));
    if (removed && car.pipeline_id !== null) await deps.refresh.cancelQuietly(car.pipeline_id);
  }

  /** What a car entity shows besides the car: its merge request, who added it, its pipeline. */
  async function facts(list: readonly Car[]): Promise<CarFacts> {
    const mergeRequests = new Map<number, MergeRequest>();
    const pipelines = new Map<number, PipelineRow>();
    for (const car of list) {
      const mergeRequest = mergeRequests.get(car.merge_request_id) ?? (await deps.mergeRequests.findById(car.merge_request_id));
      if (mergeRequest) mergeRequests.set(car.merge_request_id, mergeRequest);
      const pipeline = car.pipeline_id === null ? null : await deps.pipelines.pipelineById(car.pipeline_id);
      if (pipeline) pipelines.set(pipeline.id, pipeline);
    }
    const users = await deps.mergeRequests.usersByIds([...new Set(list.flatMap((car) => (car.user_id === null ? [] : [car.user_id])))]);
    return { mergeRequests, pipelines, users };
  }

  return {
    add,
    remove,
    authorizeRead,
    facts,

    /**
     * POST /projects/:id/merge_trains/merge_requests/:iid: the car added (`added`: 201), or with
     * `whenChecksPass` while its checks do not pass yet, set to be added when they do
     * (add_to_merge_train_when_checks_pass, GitLab's 202); then the whole train.
     */
    async addByPath(actor: Actor, idOrPath: string | number, iid: number, options: AddOptions) {
      const opened = await deps.mergeRequestsService.open(actor, idOrPath, iid);
      let added = true;
      if (options.whenChecksPass) {
        await checkAdd(actor, opened, options);
        added = !(await deps.autoMerge.addToTrainWhenChecksPass(actor, opened, { sha: options.sha?.toLowerCase(), squash: options.squash }));
      }
      if (added) await add(actor, opened, options);
      return { opened, added, train: await cars.list({ projectId: opened.project.id, targetBranch: opened.mergeRequest.target_branch, sort: 'desc', limit: 100, offset: 0 }) };
    },

    async removeByPath(actor: Actor, idOrPath: string | number, iid: number): Promise<void> {
      await remove(actor, await deps.mergeRequestsService.open(actor, idOrPath, iid));
    },

    /** GET /projects/:id/merge_trains[/:target_branch]. */
    async list(actor: Actor, idOrPath: string | number, filter: Omit<CarListFilter, 'projectId'>) {
      const project = await deps.projects.find(actor, idOrPath);
      await authorizeRead(actor, project);
      return { project, ...(await cars.list({ ...filter, projectId: project.id })) };
    },

    /** GET /projects/:id/merge_trains/merge_requests/:iid: 404 when it has no car. */
    async carByPath(actor: Actor, idOrPath: string | number, iid: number) {
      const opened = await openForRead(actor, idOrPath, iid);
      const car = await cars.carOf(opened.mergeRequest.id);
      if (!car) throw new NotFoundError('Merge Train Merge Request');
      return { opened, car };
    },

    /** The car while the request is on a train, with its index and the train's length (GraphQL's mergeTrainCar, MergeTrainPosition). */
    async position(mergeRequest: Pick<MergeRequest, 'id'>): Promise<{ car: Car; index: number; count: number } | null> {
      const car = await cars.carOf(mergeRequest.id);
      if (!car || !['idle', 'stale', 'fresh', 'merging'].includes(car.status)) return null;
      const [index, count] = await Promise.all([cars.indexOf(car), cars.countOnTrain(car.target_project_id, car.target_branch)]);
      return { car, index, count };
    },

    /** Cars on the project's trains, for the count GraphQL's Project shows. */
    carsOfProject: (projectId: number, filter: Omit<CarListFilter, 'projectId'>) => cars.list({ ...filter, projectId }),

    /**
     * Before a merge immediately (PUT …/merge without auto-merge) on a project with trains:
     * `skip_merge_train` needs the project's merge_trains_skip_train_allowed (400 otherwise).
     */
    async checkMergeImmediately(project: Project, skipMergeTrain: boolean | undefined): Promise<void> {
      if (skipMergeTrain && mergeTrainsEnabled(project) && !project.merge_trains_skip_train_allowed) throw new ValidationError(MERGE_TRAIN_MESSAGES.skipNotAllowed);
    },

    /**
     * After a merge immediately: the request's own car (if it was on the train) leaves it, and a
     * skip is recorded as a skip_merged car in the train's history (GitLab's). Either way the
     * target moved, so every car restarts on the new tip: Tributary merges only what a car's
     * pipeline tested, so a skip cannot keep the old pipelines (it only avoids a removal note).
     */
    async mergedImmediately(actor: Actor, opened: OpenedMergeRequest, skipMergeTrain: boolean | undefined): Promise<void> {
      const { project, mergeRequest } = opened;
      if (!mergeTrainsEnabled(project) || !actor.user) return;
      const car = await cars.carOf(mergeRequest.id);
      await deps.db.transaction(async (tx) => {
        if (car && ['idle', 'stale', 'fresh'].includes(car.status)) await cars.remove(car.id, tx);
        if (skipMergeTrain) {
          const skipped = await cars.insert(
            { merge_request_id: mergeRequest.id, user_id: actor.user!.id, target_project_id: project.id, target_branch: mergeRequest.target_branch, squash: false, source_sha: mergeRequest.head_commit_sha ?? '', status: 'skip_merged' },
            tx,
          );
          await deps.refresh.note(skipped, actor.user!.id, 'skipped', null, tx);
        }
        const train = { target_project_id: project.id, target_branch: mergeRequest.target_branch };
        await deps.refresh.announceTrain(train, tx, car);
        await deps.refresh.enqueueRefresh(train, tx);
      });
      if (car?.pipeline_id) await deps.refresh.cancelQuietly(car.pipeline_id);
    },
  };
}

/** Why a merge request cannot join a train now, or null. Pure. */
export function addRefusal(mergeRequest: Pick<MergeRequest, 'state' | 'draft' | 'head_commit_sha' | 'commits_count'>): string | null {
  if (mergeRequest.state !== 'opened') return MERGE_TRAIN_MESSAGES.notOpen;
  if (mergeRequest.draft) return MERGE_TRAIN_MESSAGES.draft;
  if (mergeRequest.head_commit_sha === null || !mergeRequest.commits_count) return MERGE_TRAIN_MESSAGES.noCommits;
  return null;
}

export type MergeTrainsService = ReturnType<typeof createMergeTrainsService>;
