/**
 * Auto-merge (GitLab's AutoMergeService and its merge_when_checks_pass strategy): a user who
 * may merge sets a merge request to merge itself once every check passes; it then merges as
 * that user, with the options they chose, through the one merge service (the same path as
 * `PUT …/merge`), or is aborted with a system note when it can no longer happen.
 *
 *   set       one transaction: the setting, merge_user, the "enabled an automatic merge" event
 *             (its note), merge_request.changed (whose reaction enqueues an evaluation)
 *   trigger   every change the page hears (merge_request.changed: a pipeline's jobs moving, an
 *             approval, a resolved thread, a title or state change, a new version, a blocker's
 *             merge) enqueues EVALUATE_JOB in the transaction that makes the change, for the
 *             request and for those it blocks, when they have auto-merge set
 *   evaluate  abortReason (rules.ts) → abort with the note; mergeDecision → merge, or wait
 *
 * Exactly once: the evaluation may run in several processes at once (or twice in one); the
 * merge service's merge intent lets one merge through and refuses the others (405), and a
 * process killed mid-merge is settled on restart by merge reconciliation. Removing the setting
 * and writing the abort note is one conditional delete, so the note is written once.
 */
import { t } from '@tributary/contracts';
import type { Database, Queryable } from '../../platform/db/database.js';
import { ConflictError, MethodNotAllowedError, NotAcceptableError, NotFoundError, UnauthorizedError, UnprocessableError } from '../../platform/errors.js';
import type { DomainEvent, EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { JobPayloadMap, JobQueue } from '../../platform/queue.js';
import { actorFor, type Actor } from '../../auth/actor.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { MergeRequest, OpenedMergeRequest } from '../merge-requests/merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { MergeInput } from '../merge-requests/merging/index.js';
import { MERGE_MESSAGES } from '../merge-requests/merging/merge-messages.js';
import type { MergeService } from '../merge-requests/merging/merge.service.js';
import { pipelineInProgress, type HeadPipelineStatus, type MergeabilityService } from '../merge-requests/mergeability/index.js';
import type { AutoMergeRepository, AutoMergeSetting } from './auto-merge.repository.js';
import type { MergeTrainsPort } from './merge-trains-port.js';
import { abortReason, followsPush, mergeDecision, shownAutoMergeStrategy, type AbortReason } from './rules.js';
import { ADD_TO_MERGE_TRAIN_WHEN_CHECKS_PASS, MERGE_TRAIN, availableStrategies, chooseStrategy, isTrainStrategy, preferredStrategy, type AutoMergeStrategy } from './strategy.js';

/** Evaluates one merge request's auto-merge: abort, merge or wait. */
export const EVALUATE_JOB = 'auto_merge.evaluate' satisfies keyof JobPayloadMap;

/** GitLab's 406 body when there is no auto-merge to cancel. */
export const CANNOT_CANCEL = "Can't cancel the automatic merge";

export interface AutoMergeState {
  /** the setting, when auto-merge is set (enabled, or failed with its error) */
  setting: AutoMergeSetting | null;
  /** the strategy the request shows (GitLab's auto_merge_strategy): merge_train for a car (shownAutoMergeStrategy) */
  strategy: AutoMergeStrategy | null;
  /** what the viewer could set now, in priority order */
  available: AutoMergeStrategy[];
  preferred: AutoMergeStrategy | null;
}

export function createAutoMergeService(deps: {
  db: Pick<Database, 'transaction'>;
  repository: AutoMergeRepository;
  queue: Pick<JobQueue, 'enqueue'>;
  events: Pick<EventBus, 'publish'>;
  logger: Pick<Logger, 'warn'>;
  mergeRequestsService: Pick<MergeRequestsService, 'open'>;
  /** with events: recordEvent writes the system note in its transaction */
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'recordEvent' | 'usersByIds'>;
  projects: Pick<ProjectsRepository, 'findById'>;
  merging: Pick<MergeService, 'merge' | 'canMerge'>;
  mergeability: Pick<MergeabilityService, 'evaluate'>;
  headPipelineStatuses: (mergeRequests: readonly MergeRequest[]) => Promise<Map<number, HeadPipelineStatus>>;
  /** the request has had any pipeline (GitLab's has_ci?; the pipelines domain) */
  hasPipelines: (opened: OpenedMergeRequest) => Promise<boolean>;
  trains: MergeTrainsPort;
}) {
  const { repository } = deps;
  const changed = (mergeRequest: Pick<MergeRequest, 'id' | 'target_project_id'>, tx: Queryable) =>
    deps.events.publish('merge_request.changed', { mergeRequestId: mergeRequest.id, projectId: mergeRequest.target_project_id }, tx);
  const pipelineOf = async (mergeRequest: MergeRequest) => (await deps.headPipelineStatuses([mergeRequest])).get(mergeRequest.id) ?? null;

  /** The strategies `actor` could set on the request now, and what decides them. */
  async function strategiesFor(actor: Actor, opened: OpenedMergeRequest) {
    const { mergeRequest, project } = opened;
    const [canMerge, result, pipelineStatus, hasCi, trainsEnabled] = await Promise.all([
      deps.merging.canMerge(actor, opened),
      deps.mergeability.evaluate(mergeRequest, project),
      pipelineOf(mergeRequest),
      deps.hasPipelines(opened),
      deps.trains.enabled(project.id),
    ]);
    const checks = new Map(result.checks.map((check) => [check.identifier, check.status]));
    const available = availableStrategies({
      open: mergeRequest.state === 'opened',
      canMerge,
      broken: mergeRequest.commits_count === 0 || checks.get('COMMITS_STATUS') === 'FAILED',
      mergeTrainsEnabled: trainsEnabled,
      mergeableNow: result.detailedMergeStatus === 'MERGEABLE',
      failedChecks: result.checks.filter((check) => check.status === 'FAILED').map((check) => check.identifier),
      // a head pipeline not created yet (CI, no pipeline for this head) is one still to come
      pipelineInProgress: pipelineInProgress(pipelineStatus) || (hasCi && pipelineStatus === null),
      pipelineComplete: pipelineStatus !== null && !pipelineInProgress(pipelineStatus),
    });
    return { canMerge, available, pipelineStatus, hasCi };
  }

  async function enable(user: NonNullable<Actor['user']>, opened: OpenedMergeRequest, strategy: AutoMergeStrategy, input: MergeInput): Promise<void> {
    const { mergeRequest } = opened;
    await deps.db.transaction(async (tx) => {
      await repository.upsert(
        {
          merge_request_id: mergeRequest.id,
          user_id: user.id,
          strategy,
          sha: mergeRequest.head_commit_sha!,
          target_branch: mergeRequest.target_branch,
          squash: input.squash ?? null,
          should_remove_source_branch: input.shouldRemoveSourceBranch ?? null,
          merge_commit_message: input.mergeCommitMessage ?? null,
          squash_commit_message: input.squashCommitMessage ?? null,
        },
        tx,
      );
      await deps.mergeRequests.recordEvent(mergeRequest.id, user.id, 'auto_merge_enabled', { to: mergeRequest.head_commit_sha }, tx);
      // its reaction (onChanged) enqueues the first evaluation: the checks may pass already
      await changed(mergeRequest, tx);
    });
  }

  /** Removes the setting read as `setting` and writes the abort note, once; false when it changed meanwhile (a later evaluation decides). */
  async function abort(setting: AutoMergeSetting, mergeRequest: MergeRequest, reason: AbortReason): Promise<boolean> {
    return deps.db.transaction(async (tx) => {
      if (!(await repository.remove(mergeRequest.id, tx, setting.lock_version))) return false;
      await deps.mergeRequests.recordEvent(mergeRequest.id, setting.user_id, 'auto_merge_aborted', { to: reason }, tx);
      await changed(mergeRequest, tx);
      return true;
    });
  }

  /** The setter as an actor, and whether they may still see and merge the request. */
  async function setterOf(setting: AutoMergeSetting, mergeRequest: MergeRequest): Promise<{ actor: Actor; opened: OpenedMergeRequest | null; canMerge: boolean }> {
    const user = (await deps.mergeRequests.usersByIds([setting.user_id])).get(setting.user_id) ?? null;
    const actor = actorFor(user, 'session');
    if (!user || user.state !== 'active') return { actor, opened: null, canMerge: false };
    try {
      const opened = await deps.mergeRequestsService.open(actor, mergeRequest.target_project_id, mergeRequest.iid);
      return { actor, opened, canMerge: await deps.merging.canMerge(actor, opened) };
    } catch (error) {
      if (error instanceof NotFoundError) return { actor, opened: null, canMerge: false };
      throw error;
    }
  }

  /** A train strategy whose checks passed: the request becomes a car (merge-trains-port.ts) and the train merges it from here. */
  async function handOver(setting: AutoMergeSetting, mergeRequest: MergeRequest): Promise<'handed-to-train'> {
    const mergeRequestId = mergeRequest.id;
    await deps.db.transaction(async (tx) => {
      if (!(await repository.remove(mergeRequestId, tx, setting.lock_version))) return;
      await deps.trains.add(
        {
          mergeRequestId,
          projectId: mergeRequest.target_project_id,
          targetBranch: mergeRequest.target_branch,
          userId: setting.user_id,
          sha: setting.sha,
          squash: setting.squash,
          shouldRemoveSourceBranch: setting.should_remove_source_branch,
          mergeCommitMessage: setting.merge_commit_message,
          squashCommitMessage: setting.squash_commit_message,
        },
        tx,
      );
      await changed(mergeRequest, tx);
    });
    return 'handed-to-train';
  }

  async function evaluate(mergeRequestId: number): Promise<'merged' | 'aborted' | 'failed' | 'handed-to-train' | 'waiting' | 'none'> {
    const setting = await repository.find(mergeRequestId);
    if (!setting || setting.state !== 'enabled') return 'none';
    const mergeRequest = await deps.mergeRequests.findById(mergeRequestId);
    if (!mergeRequest) return 'none';
    if (mergeRequest.state === 'merged') {
      // merged by hand, or by an evaluation that died before tidying up
      await deps.db.transaction((tx) => repository.remove(mergeRequestId, tx, setting.lock_version));
      return 'none';
    }
    // Added to its train meanwhile (the API or the page): the train owns it, the setting goes.
    if (isTrainStrategy(setting.strategy) && (await deps.trains.carOf(mergeRequestId)) !== null) return handOver(setting, mergeRequest);
    const [setter, pipelineStatus] = await Promise.all([setterOf(setting, mergeRequest), pipelineOf(mergeRequest)]);
    const reason = abortReason({
      state: mergeRequest.state,
      targetBranch: mergeRequest.target_branch,
      setTargetBranch: setting.target_branch,
      headSha: mergeRequest.head_commit_sha,
      setSha: setting.sha,
      setterCanMerge: setter.canMerge,
      pipelineStatus,
      startsTrainNow: setting.strategy === MERGE_TRAIN,
    });
    if (reason !== null) return (await abort(setting, mergeRequest, reason)) ? 'aborted' : 'none';
    const opened = setter.opened!;
    const [result, hasCi] = await Promise.all([deps.mergeability.evaluate(mergeRequest, opened.project), deps.hasPipelines(opened)]);
    if (mergeDecision({ detailedMergeStatus: result.detailedMergeStatus, hasCi, pipelineStatus, skippedPipelineSucceeds: opened.project.allow_merge_on_skipped_pipeline, startsTrainNow: setting.strategy === MERGE_TRAIN }) === 'wait') return 'waiting';

    if (isTrainStrategy(setting.strategy)) return handOver(setting, mergeRequest);

    try {
      await deps.merging.merge(setter.actor, mergeRequest.target_project_id, mergeRequest.iid, {
        // only what was reviewed when it was set (or pushed since by the setter) is merged
        sha: setting.sha,
        squash: setting.squash ?? undefined,
        shouldRemoveSourceBranch: setting.should_remove_source_branch ?? undefined,
        mergeCommitMessage: setting.merge_commit_message ?? undefined,
        squashCommitMessage: setting.squash_commit_message ?? undefined,
      });
    } catch (error) {
      if (error instanceof UnprocessableError) {
        // The merge was tried and failed: the page shows 'auto-merge failed' with the error.
        const after = await deps.mergeRequests.findById(mergeRequestId);
        await deps.db.transaction(async (tx) => {
          await repository.markFailed(mergeRequestId, after?.merge_error ?? (typeof error.body === 'string' ? error.body : MERGE_MESSAGES.cannotMerge), tx);
          await changed(mergeRequest, tx);
        });
        return 'failed';
      }
      // Not mergeable after all, being merged by another process, or a push arrived: the
      // next change evaluates again (and a push by someone else aborts it then).
      if (error instanceof MethodNotAllowedError || error instanceof ConflictError) return 'waiting';
      if (error instanceof UnauthorizedError) return (await abort(setting, mergeRequest, 'the merge user can no longer merge')) ? 'aborted' : 'none';
      throw error;
    }
    await deps.db.transaction((tx) => repository.remove(mergeRequestId, tx));
    return 'merged';
  }

  return {
    EVALUATE_JOB,

    /** The auto-merge state of a request for `actor` (entities, the widget). */
    async stateFor(actor: Actor, node: Pick<OpenedMergeRequest, 'project' | 'mergeRequest'>): Promise<AutoMergeState> {
      // what the strategies read of an opened request is its project and the request itself
      const opened = node as OpenedMergeRequest;
      const open = opened.mergeRequest.state === 'opened';
      const [setting, car, strategies] = await Promise.all([
        repository.find(opened.mergeRequest.id),
        open ? deps.trains.carOf(opened.mergeRequest.id) : null,
        open && actor.user ? strategiesFor(actor, opened) : null,
      ]);
      // nothing more to set while it is set, or while its train merges it
      const available = setting?.state === 'enabled' || car !== null ? [] : (strategies?.available ?? []);
      return { setting: setting ?? null, strategy: shownAutoMergeStrategy(setting, car !== null), available, preferred: preferredStrategy(available) };
    },

    /** The settings of many requests (REST lists). */
    settingsOf: (mergeRequestIds: readonly number[]) => repository.findMany(mergeRequestIds),

    /**
     * `PUT …/merge` with `auto_merge` or `merge_when_pipeline_succeeds` (GitLab's
     * execute_merge): sets auto-merge with the requested or preferred strategy when one is
     * available; else merges at once when the pipeline allows it (none, or succeeded); else 405.
     */
    async mergeOrSet(actor: Actor, idOrPath: string | number, iid: number, input: MergeInput & { strategy?: string }): Promise<OpenedMergeRequest> {
      const user = actor.user;
      if (!user) throw new UnauthorizedError();
      const opened = await deps.mergeRequestsService.open(actor, idOrPath, iid);
      const { canMerge, available, pipelineStatus, hasCi } = await strategiesFor(actor, opened);
      if (!canMerge) throw new UnauthorizedError();
      const head = opened.mergeRequest.head_commit_sha;
      if (input.sha !== undefined && input.sha !== head) throw new ConflictError(t(MERGE_MESSAGES.shaMismatch, { sha: head ?? '' }));
      // Already a car: its train merges it (GitLab's merge_train strategy is a no-op on a car).
      if (opened.mergeRequest.state === 'opened' && (await deps.trains.carOf(opened.mergeRequest.id)) !== null) return opened;
      const strategy = chooseStrategy(available, input.strategy);
      if (strategy !== null && head !== null) {
        await enable(user, opened, strategy, input);
        return { ...opened, mergeRequest: (await deps.mergeRequests.findById(opened.mergeRequest.id))! };
      }
      if (input.strategy !== undefined && input.strategy !== '') throw new MethodNotAllowedError();
      // GitLab's pipeline_allows_merge?: no pipeline (none coming either), or it succeeded
      if ((pipelineStatus === null && !hasCi) || pipelineStatus === 'success') return deps.merging.merge(actor, idOrPath, iid, input);
      throw new MethodNotAllowedError();
    },

    /**
     * `POST …/merge_trains/merge_requests/:iid` with `when_pipeline_succeeds` (or `auto_merge`):
     * sets add_to_merge_train_when_checks_pass when the caller could set it now (GitLab's
     * AddMergeRequestService); false when it is not available (its checks pass already: the
     * caller adds the car at once). The caller has checked the right to merge and the sha.
     */
    async addToTrainWhenChecksPass(actor: Actor, opened: OpenedMergeRequest, input: MergeInput): Promise<boolean> {
      const user = actor.user;
      if (!user) throw new UnauthorizedError();
      const { available } = await strategiesFor(actor, opened);
      if (!available.includes(ADD_TO_MERGE_TRAIN_WHEN_CHECKS_PASS) || opened.mergeRequest.head_commit_sha === null) return false;
      await enable(user, opened, ADD_TO_MERGE_TRAIN_WHEN_CHECKS_PASS, input);
      return true;
    },

    /**
     * `POST …/cancel_merge_when_pipeline_succeeds` (GitLab: who may merge, or the author;
     * 405 when the request is not open, 406 when no auto-merge is set and it is not on a train).
     */
    async cancel(actor: Actor, idOrPath: string | number, iid: number): Promise<OpenedMergeRequest> {
      const user = actor.user;
      if (!user) throw new UnauthorizedError();
      const opened = await deps.mergeRequestsService.open(actor, idOrPath, iid);
      const { mergeRequest } = opened;
      if (!(await deps.merging.canMerge(actor, opened)) && mergeRequest.author_id !== user.id) throw new UnauthorizedError();
      if (mergeRequest.state !== 'opened') throw new MethodNotAllowedError();
      const cancelled = await deps.db.transaction(async (tx) => {
        const setting = await repository.find(mergeRequest.id, tx);
        if (!setting) {
          // Handed to its train, the request's auto-merge is the train's (GitLab's merge_train
          // strategy stays set while it is a car): cancelling takes it off, with the train's note.
          if (!(await deps.trains.remove(mergeRequest.id, user.id, tx))) return false;
          await changed(mergeRequest, tx);
          return true;
        }
        if (!(await repository.remove(mergeRequest.id, tx, setting.lock_version))) return false;
        if (isTrainStrategy(setting.strategy)) await deps.trains.remove(mergeRequest.id, user.id, tx);
        await deps.mergeRequests.recordEvent(mergeRequest.id, user.id, 'auto_merge_canceled', {}, tx);
        await changed(mergeRequest, tx);
        return true;
      });
      if (!cancelled) throw new NotAcceptableError(CANNOT_CANCEL);
      return { ...opened, mergeRequest: (await deps.mergeRequests.findById(mergeRequest.id))! };
    },

    /** The EVALUATE_JOB handler. */
    async runEvaluation(payload: { mergeRequestId: number }): Promise<void> {
      await evaluate(payload.mergeRequestId);
    },
    evaluate,

    /**
     * `merge_request.changed` reaction, in the transaction of the change: enqueues an evaluation
     * for the request and the requests it blocks, each only when its auto-merge is enabled.
     */
    async onChanged(event: DomainEvent<'merge_request.changed'>, tx: Queryable): Promise<void> {
      for (const mergeRequestId of await repository.affectedBy(event.payload.mergeRequestId, tx)) {
        await deps.queue.enqueue(EVALUATE_JOB, { mergeRequestId }, { tx });
      }
    },

    /**
     * `merge_request.version_recorded` reaction: the setter's own push moves the auto-merge
     * along to the new head; anyone else's push leaves it behind, and the evaluation that the
     * same transaction enqueued aborts it ('source branch was updated').
     */
    async onVersionRecorded(event: DomainEvent<'merge_request.version_recorded'>, tx: Queryable): Promise<void> {
      const setting = await repository.find(event.payload.mergeRequestId, tx);
      if (!setting || !followsPush(event.payload.userId, setting.user_id)) return;
      const mergeRequest = await deps.mergeRequests.findById(event.payload.mergeRequestId, tx);
      if (mergeRequest?.head_commit_sha) await repository.follow(mergeRequest.id, mergeRequest.head_commit_sha, tx);
    },
  };
}

export type AutoMergeService = ReturnType<typeof createAutoMergeService>;
