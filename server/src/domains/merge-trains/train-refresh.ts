/**
 * The refresh of one merge train (GitLab's MergeTrains::RefreshService), run as the queue job
 * MERGE_TRAIN_REFRESH_JOB for (project, target branch). It is idempotent: it reads the train
 * (cars, their merge requests, pipelines and the refs) and does what is due, so running it
 * again, in any process, after any crash, is harmless. Every change that affects a train
 * enqueues it in the change's transaction: a car added or removed, a car's pipeline finished, a
 * push to the target branch, a new version of a car's merge request, a car merged.
 *
 * One pass, front to back:
 * 1. A car found `merging` (its process died mid-merge) is settled from its merge intent: merged
 *    when the request is, back on the train (stale) when the intent failed.
 * 2. A car that can no longer be merged leaves with a system note: the request is not open, its
 *    head moved (a push to its source branch), trains were turned off, or its head does not merge
 *    onto the car ahead.
 * 3. Each of the first MAX_PARALLEL cars tests its head merged onto its base (the target tip for
 *    the front car, the car ahead's train commit otherwise). A car whose base changed (the
 *    target moved, a car ahead left or restarted) or that has no pipeline gets a new train
 *    commit at refs/merge-requests/:iid/train (compare-and-swap) and a new pipeline; its old
 *    pipeline is canceled.
 * 4. The ejection rule (ejection-rule.ts) decides: the front car merges when its pipeline passed
 *    (the target fast-forwards to exactly the tested commit); a failed car is ejected only when
 *    every car ahead passed, and held otherwise.
 *
 * Two refreshes of one train in different processes are safe: each car change is a
 * compare-and-swap on the car's status and pipeline, each ref move a compare-and-swap on its old
 * value; the loser stops and its job's next run starts from what the winner left.
 */
import type { Database, Queryable } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { JobQueue } from '../../platform/queue.js';
import { actorFor, ANONYMOUS } from '../../auth/actor.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import { defaultMessages } from '../merge-requests/merging/default-messages.js';
import { sourceBranchDeleter } from '../merge-requests/merging/merge-plan.js';
import type { MergeSettlement } from '../merge-requests/merging/merge-settlement.js';
import type { MergingRepository } from '../merge-requests/merging/merging.repository.js';
import type { MergeRequestPipelines } from '../pipelines/merge-request-pipelines.service.js';
import type { JobRow, PipelineRow } from '../pipelines/pipeline.js';
import type { PipelineEngine } from '../pipelines/pipeline-engine.service.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { Project } from '../projects/project.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { User } from '../users/user.js';
import { carIsCurrent, mergeTrainsEnabled, trainRefName, type Car } from './car.js';
import { carOutcome, trainDecisions } from './ejection-rule.js';
import type { MergeTrainsRepository } from './merge-trains.repository.js';
import { buildTrainCommit, swapRef, tipsOf } from './train-git.js';
import { failureReason, logTail, type TrainNoteKind } from './train-notes.js';

export const MERGE_TRAIN_REFRESH_JOB = 'merge_trains.refresh';

/** GitLab's DEFAULT_CONCURRENCY: at most this many train pipelines run at once per train; the rest queue. */
export const MAX_PARALLEL = 20;

/**
 * The steps of a train merge, named so that a test can stop the process between two of them:
 * TRIBUTARY_TEST_CRASH_AT=<step> (honoured only when NODE_ENV=test, as the merge steps are)
 * makes the server SIGKILL itself there.
 */
export const TRAIN_STEPS = ['train:intent-recorded', 'train:ref-moved'] as const;
export type TrainStep = (typeof TRAIN_STEPS)[number];
export type TrainStepHook = (step: TrainStep) => void | Promise<void>;

/** The production hook: inert unless configured with a train step; kills this process at it. */
export function trainCrashHook(crashAt: string | undefined): TrainStepHook {
  if (!crashAt || !(TRAIN_STEPS as readonly string[]).includes(crashAt)) return () => undefined;
  return (step) => {
    if (step === crashAt) process.kill(process.pid, 'SIGKILL');
  };
}

export interface TrainRefreshDeps {
  db: Pick<Database, 'transaction'>;
  cars: MergeTrainsRepository;
  projects: Pick<ProjectsRepository, 'findById'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'recordEvent' | 'usersByIds'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  pipelines: Pick<PipelinesRepository, 'pipelineById' | 'latestJobs'>;
  mergeRequestPipelines: Pick<MergeRequestPipelines, 'createForTrain'>;
  engine: Pick<PipelineEngine, 'cancelPipeline'>;
  readLog: (jobId: number) => Promise<NodeJS.ReadableStream>;
  intents: Pick<MergingRepository, 'insertIntent' | 'lockIntent' | 'transition' | 'hasUnfinished' | 'commitTemplates'>;
  settlement: Pick<MergeSettlement, 'finalizeIn'>;
  queue: Pick<JobQueue, 'enqueue'>;
  events: Pick<EventBus, 'publish' | 'publishMany'>;
  logger: Pick<Logger, 'warn'>;
  externalUrl: string;
  onStep?: TrainStepHook;
}

/** A pipeline status after which a car's outcome is known. */
export function isFinished(status: string | null): boolean {
  return status === 'success' || status === 'failed' || status === 'canceled' || status === 'skipped';
}

export function createTrainRefresh(deps: TrainRefreshDeps) {
  const { cars } = deps;
  const onStep = deps.onStep ?? (() => undefined);

  const enqueueRefresh = (car: Pick<Car, 'target_project_id' | 'target_branch'>, tx?: Queryable) =>
    deps.queue.enqueue(MERGE_TRAIN_REFRESH_JOB, { projectId: car.target_project_id, targetBranch: car.target_branch }, { tx });

  const changed = (car: Pick<Car, 'merge_request_id' | 'target_project_id'>, tx: Queryable) =>
    deps.events.publish('merge_request.changed', { mergeRequestId: car.merge_request_id, projectId: car.target_project_id }, tx);

  /**
   * In the transaction that changed a train (a car added, removed, ejected or merged): every car
   * on it, and the car that left, announce merge_request.changed, so each page hears its new
   * position (the merge widget's MergeTrainPosition through mergeRequestMergeStatusUpdated).
   */
  async function announceTrain(train: Pick<Car, 'target_project_id' | 'target_branch'>, tx: Queryable, left?: Pick<Car, 'merge_request_id'>): Promise<void> {
    const onTrain = await cars.onTrain(train.target_project_id, train.target_branch, tx);
    const ids = new Set([...(left ? [left.merge_request_id] : []), ...onTrain.map((car) => car.merge_request_id)]);
    await deps.events.publishMany('merge_request.changed', [...ids].map((mergeRequestId) => ({ mergeRequestId, projectId: train.target_project_id })), tx);
  }

  /** A system note on the car's merge request (the `merge_train` event). */
  const note = (car: Pick<Car, 'merge_request_id'>, userId: number | null, kind: TrainNoteKind, detail: string | null, tx: Queryable) =>
    deps.mergeRequests.recordEvent(car.merge_request_id, userId, 'merge_train', { from: kind, to: detail }, tx);

  /** The car leaves the train with a note saying why; the cars behind restart on the next pass. */
  async function drop(car: Car, reason: string): Promise<boolean> {
    const removed = await deps.db.transaction(async (tx) => {
      if (!(await cars.remove(car.id, tx))) return false;
      await note(car, car.user_id, 'aborted', reason, tx);
      await announceTrain(car, tx, car);
      await enqueueRefresh(car, tx);
      return true;
    });
    if (removed && car.pipeline_id !== null) await cancelQuietly(car.pipeline_id);
    return removed;
  }

  async function cancelQuietly(pipelineId: number): Promise<void> {
    const pipeline = await deps.pipelines.pipelineById(pipelineId);
    if (!pipeline || isFinished(pipeline.status)) return;
    await deps.engine.cancelPipeline(pipelineId).catch((error: unknown) => deps.logger.warn({ err: error, pipelineId }, 'canceling an outdated merge train pipeline failed'));
  }

  /** Why a car can no longer be on the train, or null. */
  function invalidity(project: Project, mergeRequest: MergeRequest | undefined, car: Car): string | null {
    if (!mergeTrainsEnabled(project)) return 'merge trains are disabled for this project';
    if (!mergeRequest || mergeRequest.state !== 'opened') return 'the merge request is not open';
    if (mergeRequest.draft) return 'the merge request is marked as draft';
    if (mergeRequest.head_commit_sha !== car.source_sha) return 'the source branch was updated';
    return null;
  }

  /** Step 1: a car a dead process left merging. Answers whether it is still on the train. */
  async function settleMerging(car: Car, mergeRequest: MergeRequest | undefined): Promise<'merged' | 'waiting' | 'back'> {
    if (mergeRequest?.state === 'merged') {
      await deps.db.transaction(async (tx) => {
        if (!(await cars.markMerged(car.id, tx))) return;
        await announceTrain(car, tx, car);
        await enqueueRefresh(car, tx);
      });
      return 'merged';
    }
    // The merge's intent is still being settled (merge-settlement.ts): look again shortly.
    if (await deps.intents.hasUnfinished(car.merge_request_id)) return 'waiting';
    await cars.transition(car.id, ['merging'], 'stale');
    return 'back';
  }

  /** Step 3: a new train commit and pipeline for a car; 'left' when it left the train, 'lost' when another refresh moved it first. */
  async function rebuild(project: Project, car: Car, mergeRequest: MergeRequest, base: string, users: Map<number, User>): Promise<Car | 'left' | 'lost'> {
    const repoPath = deps.storage.pathFor(project.id);
    const adder = car.user_id === null ? undefined : users.get(car.user_id);
    const author = mergeRequest.author_id === null ? null : (users.get(mergeRequest.author_id) ?? null);
    const merger = adder ?? author;
    const identity = merger ? { name: merger.name, email: merger.email } : { name: 'Tributary', email: 'noreply@tributary.invalid' };
    const messages = await defaultMessages({
      mergeRequest,
      templates: await deps.intents.commitTemplates(project.id),
      author,
      merger: merger ?? null,
      repoPath,
      target: base,
      head: car.source_sha!,
      externalUrl: deps.externalUrl,
    });
    const built = await buildTrainCommit(repoPath, {
      base,
      head: car.source_sha!,
      method: project.merge_method,
      squash: car.squash,
      // the messages chosen when the car was added, else the defaults (as a merge writes them)
      mergeMessage: car.merge_commit_message ?? messages.merge,
      squashMessage: car.squash_commit_message ?? messages.squash,
      merger: identity,
      squashAuthor: author ? { name: author.name, email: author.email } : identity,
    });
    if (!built) {
      await drop(car, 'it has merge conflicts with the merge train');
      return 'left';
    }
    const ref = trainRefName(mergeRequest.iid);
    const refTip = (await tipsOf(repoPath, [ref])).get(ref) ?? null;
    if (refTip !== built.newTarget && !(await swapRef(repoPath, ref, built.newTarget, refTip))) return 'lost';
    const actor = adder && adder.state === 'active' ? actorFor(adder, 'session') : ANONYMOUS;
    const outcome = await deps.mergeRequestPipelines.createForTrain(actor, mergeRequest, project, { sha: built.newTarget, targetSha: base });
    const pipeline = outcome && 'pipeline' in outcome ? outcome.pipeline : null;
    const build = { pipeline_id: pipeline?.id ?? null, base_sha: base, train_sha: built.newTarget, merge_commit_sha: built.mergeCommitSha, squash_commit_sha: built.squashCommitSha };
    const won = await deps.db.transaction(async (tx) => {
      if (!(await cars.recordBuild(car, build, tx))) return false;
      await changed(car, tx);
      return true;
    });
    if (!won) {
      if (pipeline) await cancelQuietly(pipeline.id);
      return 'lost';
    }
    if (car.pipeline_id !== null && car.pipeline_id !== build.pipeline_id) await cancelQuietly(car.pipeline_id);
    // A pipeline that ended before the car named it was not heard by the listener: look again.
    if (pipeline && isFinished((await deps.pipelines.pipelineById(pipeline.id))?.status ?? null)) await enqueueRefresh(car);
    // A configuration with no train jobs (or a broken one) gives no pipeline: the car cannot be tested.
    if (!pipeline) {
      await drop({ ...car, ...build, status: 'fresh' }, 'the pipeline could not be created');
      return 'left';
    }
    return { ...car, ...build, status: 'fresh' };
  }

  /** The failed job (not allowed to fail) of a pipeline and the end of its log, for the ejection note. */
  async function describeFailure(pipelineId: number | null): Promise<string> {
    if (pipelineId === null) return failureReason(null, '');
    const jobs: JobRow[] = await deps.pipelines.latestJobs(pipelineId);
    const failed = jobs.find((job) => job.status === 'failed' && !job.allow_failure) ?? null;
    if (!failed) return failureReason(null, '');
    let text = '';
    try {
      const parts: Buffer[] = [];
      for await (const part of await deps.readLog(failed.id)) parts.push(Buffer.from(part as Buffer));
      text = Buffer.concat(parts).toString('utf8');
    } catch (error) {
      deps.logger.warn({ err: error, jobId: failed.id }, 'reading a failed merge train job log failed');
    }
    return failureReason(failed, logTail(text));
  }

  /**
   * Step 4, the front car passed: the target fast-forwards to its train commit, through a merge
   * intent as every merge does (merge-settlement.ts finishes it after a crash). The target must
   * still be the car's base and the train ref its train commit: what is merged is what was tested.
   */
  async function mergeFront(project: Project, car: Car, mergeRequest: MergeRequest): Promise<void> {
    if (!(await cars.transition(car.id, ['fresh'], 'merging'))) return;
    const repoPath = deps.storage.pathFor(project.id);
    const intent = await deps.intents
      .insertIntent({
        merge_request_id: car.merge_request_id,
        project_id: project.id,
        user_id: car.user_id,
        target_branch: car.target_branch,
        merge_method: project.merge_method,
        source_sha: car.source_sha!,
        expected_old_sha: car.base_sha!,
        new_sha: car.train_sha!,
        merge_commit_sha: car.merge_commit_sha,
        squash_commit_sha: car.squash_commit_sha,
        // removed after the merge when asked (or forced by the request) and allowed (merge-settlement.ts)
        delete_source_branch_as: sourceBranchDeleter(mergeRequest, car.should_remove_source_branch, car.user_id),
        should_remove_source_branch: car.should_remove_source_branch,
      })
      .catch(async (error: unknown) => {
        // another merge of this request is under way (a merge immediately): the car waits for it
        await cars.transition(car.id, ['merging'], 'stale');
        throw error;
      });
    await onStep('train:intent-recorded');
    const moved = await deps.db.transaction(async (tx) => {
      const locked = await deps.intents.lockIntent(intent.id, tx);
      if (locked?.state !== 'pending') return false;
      if (!(await swapRef(repoPath, `refs/heads/${car.target_branch}`, car.train_sha!, car.base_sha!))) {
        await deps.intents.transition(intent.id, ['pending'], 'failed', tx, 'target-moved');
        await cars.transition(car.id, ['merging'], 'stale', tx);
        await enqueueRefresh(car, tx);
        return false;
      }
      await onStep('train:ref-moved');
      await deps.settlement.finalizeIn(locked, tx);
      await cars.markMerged(car.id, tx);
      await announceTrain(car, tx, car);
      await enqueueRefresh(car, tx);
      return true;
    });
    if (!moved) deps.logger.warn({ carId: car.id }, 'a merge train car could not merge: the target branch moved; it goes back on the train');
  }

  async function refresh(payload: { projectId: number; targetBranch: string }): Promise<void> {
    const project = await deps.projects.findById(payload.projectId);
    if (!project) return;
    let train = await cars.onTrain(project.id, payload.targetBranch);
    if (train.length === 0) return;
    const mergeRequests = new Map<number, MergeRequest>();
    for (const car of train) {
      const mergeRequest = await deps.mergeRequests.findById(car.merge_request_id);
      if (mergeRequest) mergeRequests.set(car.merge_request_id, mergeRequest);
    }

    // 1 and 2: settle interrupted merges, drop cars that can no longer merge
    const kept: Car[] = [];
    for (const car of train) {
      const mergeRequest = mergeRequests.get(car.merge_request_id);
      if (car.status === 'merging') {
        const settled = await settleMerging(car, mergeRequest);
        if (settled === 'waiting') {
          await deps.queue.enqueue(MERGE_TRAIN_REFRESH_JOB, payload, { runAt: new Date(Date.now() + 2000) });
          return;
        }
        if (settled === 'merged') continue;
        kept.push({ ...car, status: 'stale' });
        continue;
      }
      // merged some other way (merge immediately, another process): it simply leaves the train
      if (mergeRequest?.state === 'merged') {
        await deps.db.transaction(async (tx) => {
          if (!(await cars.remove(car.id, tx))) return;
          await announceTrain(car, tx, car);
          await enqueueRefresh(car, tx);
        });
        continue;
      }
      const reason = invalidity(project, mergeRequest, car);
      if (reason === null) kept.push(car);
      else await drop(car, reason);
    }
    train = kept;
    if (train.length === 0) return;

    // 3: each car tests its head on the car ahead
    const repoPath = deps.storage.pathFor(project.id);
    const target = `refs/heads/${payload.targetBranch}`;
    let base = (await tipsOf(repoPath, [target])).get(target) ?? null;
    if (base === null) {
      for (const car of train) await drop(car, 'the target branch no longer exists');
      return;
    }
    const userIds = new Set<number>();
    for (const car of train) {
      if (car.user_id !== null) userIds.add(car.user_id);
      const author = mergeRequests.get(car.merge_request_id)?.author_id;
      if (author) userIds.add(author);
    }
    const users = await deps.mergeRequests.usersByIds([...userIds]);
    const current: Car[] = [];
    for (const car of train.slice(0, MAX_PARALLEL)) {
      if (carIsCurrent(car, base)) {
        current.push(car);
        base = car.train_sha!;
        continue;
      }
      const rebuilt = await rebuild(project, car, mergeRequests.get(car.merge_request_id)!, base, users);
      // A car that left: the ones behind build on the same base. Another refresh moved it first: its pass goes on.
      if (rebuilt === 'left') continue;
      if (rebuilt === 'lost') return;
      current.push(rebuilt);
      base = rebuilt.train_sha!;
    }

    // 4: the ejection rule
    const pipelines = new Map<number, PipelineRow | null>();
    for (const car of current) if (car.pipeline_id !== null) pipelines.set(car.id, await deps.pipelines.pipelineById(car.pipeline_id));
    const decisions = trainDecisions(current.map((car) => carOutcome(pipelines.get(car.id)?.status ?? null)));
    for (const [index, car] of current.entries()) {
      const decision = decisions[index];
      if (decision === 'merge') await mergeFront(project, car, mergeRequests.get(car.merge_request_id)!);
      // Ejected: the cars behind restart without it on the next pass (its drop enqueues it).
      if (decision === 'eject') await drop(car, await describeFailure(car.pipeline_id));
      if (decision === 'merge' || decision === 'eject') return;
    }
  }

  return { refresh, enqueueRefresh, note, drop, cancelQuietly, announceTrain };
}

export type TrainRefresh = ReturnType<typeof createTrainRefresh>;
