/**
 * `PUT /projects/:id/merge_requests/:iid/merge` (lib/api/merge_requests.rb,
 * MergeRequests::MergeService). Answers as GitLab does: 401 when the caller may not merge
 * into the target branch, 409 when `sha` is not the source head, 405 when the request is not
 * mergeable, 422 'Branch cannot be merged' when the merge itself fails (also when it meets a
 * conflict the stored checks had not seen: mergeability-gate.ts targetConflictUnseen).
 *
 * One attempt: read both tips → checks on exactly those tips → squash and merge commits
 * (plumbing, no work tree) → the intent, committed as pending → compare-and-swap of the target
 * branch from the tip the checks saw, with the intent locked, and in that same transaction
 * finalize (which enqueues the after-merge steps: the push event, deleting the source branch).
 * A crash between the swap and that commit leaves a pending intent whose branch moved, which
 * reconciliation finalizes from the repository's truth (merge-settlement.ts). When another merge moved the target in between, the compare-and-swap
 * loses, the intent fails, and the merge is rebuilt and rechecked against the new tip (at most
 * MAX_ATTEMPTS times); for fast-forward and semi-linear projects the recheck then reports that a
 * rebase is needed and the caller is told to retry after one (422, as GitLab answers a lost race).
 * Within one process, merges into the same branch take turns (keyed-lock.ts), so that race is
 * only ever lost to another process or to a push.
 */
import { t } from '@tributary/contracts';
import type { Database } from '../../../platform/db/database.js';
import { isUniqueViolation } from '../../../platform/db/database.js';
import type { EventBus } from '../../../platform/events.js';
import { ConflictError, MethodNotAllowedError, UnauthorizedError, UnprocessableError } from '../../../platform/errors.js';
import type { Actor } from '../../../auth/actor.js';
import type { Authorizer } from '../../../auth/authorizer.js';
import { fetchCommit, hasObject, readRefTips, RefConflictError, updateRef } from '../../../git/index.js';
import type { RepositoryStorage } from '../../projects/repository-storage.js';
import type { ProtectedBranchesRepository } from '../../protected-branches/protected-branches.repository.js';
import { canMergeIntoBranch } from '../../protected-branches/push-rules.js';
import type { User } from '../../users/user.js';
import type { MergeRequest } from '../merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests.repository.js';
import type { MergeRequestsService, OpenedMergeRequest } from '../merge-requests.service.js';
import { defaultMessages } from './default-messages.js';
import { createKeyedLock } from './keyed-lock.js';
import { buildMerge, liveGitFacts, MergeConflictError, type BuiltMerge } from './merge-git.js';
import { MERGE_MESSAGES } from './merge-messages.js';
import { blockedDuringMergeReason, sourceBranchDeleter, squashOnMerge } from './merge-plan.js';
import type { MergeSettlement } from './merge-settlement.js';
import type { StepHook } from './merge-steps.js';
import type { MergeabilityService } from '../mergeability/index.js';
import { mergeRefName } from '../mergeability/trial-merge.js';
import { blockerOf, freshGitFacts, targetConflictUnseen } from './mergeability-gate.js';
import type { MergeIntent, MergingRepository } from './merging.repository.js';

/** How often a merge is rebuilt when other merges keep moving the target branch. */
export const MAX_ATTEMPTS = 5;

export interface MergeInput {
  /** the source head the caller reviewed */
  sha?: string;
  mergeCommitMessage?: string;
  squashCommitMessage?: string;
  squash?: boolean;
  shouldRemoveSourceBranch?: boolean;
}

type Attempt = { kind: 'merged' } | { kind: 'retry' } | { kind: 'failed'; mergeError: string };

export function createMergeService(deps: {
  db: Pick<Database, 'transaction'>;
  repository: MergingRepository;
  settlement: Pick<MergeSettlement, 'finalizeIn' | 'settle'>;
  mergeRequestsService: Pick<MergeRequestsService, 'open'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'lock' | 'usersByIds'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  authorizer: Pick<Authorizer, 'accessLevel'>;
  mergeability: Pick<MergeabilityService, 'evaluate' | 'recheck'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  events: Pick<EventBus, 'publish'>;
  externalUrl: string;
  onStep: StepHook;
}) {
  const { repository, storage } = deps;
  const targetLock = createKeyedLock();
  const tip = async (repo: string, branch: string) => (await readRefTips(repo, [`refs/heads/${branch}`])).get(`refs/heads/${branch}`) ?? null;
  const shaMismatch = (sha: string | null) => new ConflictError(t(MERGE_MESSAGES.shaMismatch, { sha: sha ?? '' }));

  /** GitLab's can_be_merged_by?: the one rule, canMergeIntoBranch. */
  async function canMerge(actor: Actor, opened: OpenedMergeRequest): Promise<boolean> {
    const user = actor.user;
    if (!user) return false;
    const [protections, accessLevel] = await Promise.all([deps.protectedBranches.listForProject(opened.project.id), deps.authorizer.accessLevel(actor, { project: opened.project })]);
    return canMergeIntoBranch({ userId: user.id, isAdmin: user.is_admin, accessLevel }, opened.mergeRequest.target_branch, protections, opened.project.archived);
  }

  /**
   * Source and target tips and the trial merge ref, from the repositories' ref files
   * (git/ref-files.ts: no git process).
   */
  async function branchTips(mergeRequest: MergeRequest, sourceRepo: string | null, targetRepo: string): Promise<[string | null, string | null, string | null]> {
    const source = `refs/heads/${mergeRequest.source_branch}`;
    const target = `refs/heads/${mergeRequest.target_branch}`;
    const merge = mergeRefName(mergeRequest.iid);
    if (sourceRepo !== targetRepo) {
      const [sourceTip, targetRefs] = await Promise.all([sourceRepo ? tip(sourceRepo, mergeRequest.source_branch) : null, readRefTips(targetRepo, [target, merge])]);
      return [sourceTip, targetRefs.get(target) ?? null, targetRefs.get(merge) ?? null];
    }
    const refs = await readRefTips(targetRepo, [source, target, merge]);
    return [refs.get(source) ?? null, refs.get(target) ?? null, refs.get(merge) ?? null];
  }

  /**
   * Makes sure a fork's head commit is in the target repository (each version fetches it and
   * keeps it with refs/merge-requests/:iid/head; this covers a repository restored without them).
   */
  async function ensureHead(mergeRequest: MergeRequest, targetRepo: string, head: string): Promise<void> {
    if (mergeRequest.source_project_id === null || mergeRequest.source_project_id === mergeRequest.target_project_id) return;
    if (await hasObject(targetRepo, head)) return;
    await fetchCommit(targetRepo, storage.pathFor(mergeRequest.source_project_id), head);
  }

  /** Records the intent, if the request is still open at the version the checks saw. */
  async function recordIntent(mergeRequest: MergeRequest, intent: Parameters<MergingRepository['insertIntent']>[0]): Promise<MergeIntent> {
    try {
      return await deps.db.transaction(async (tx) => {
        const locked = await deps.mergeRequests.lock(mergeRequest.id, tx);
        if (!locked || locked.state !== 'opened') throw new MethodNotAllowedError();
        if (locked.latest_diff_id !== mergeRequest.latest_diff_id) throw shaMismatch((await deps.mergeRequests.findById(mergeRequest.id, tx))?.head_commit_sha ?? null);
        return repository.insertIntent(intent, tx);
      });
    } catch (error) {
      // Another merge of this request is under way: it is not mergeable now (GitLab: locked).
      if (isUniqueViolation(error)) throw new MethodNotAllowedError();
      throw error;
    }
  }

  /**
   * Moves the target with the intent locked, so reconciliation in another process cannot fail
   * it meanwhile, and finalizes in the same transaction: one transaction fewer than committing
   * ref_moved first, with the same outcome after a crash (the intent says pending until commit).
   */
  async function moveTarget(intent: MergeIntent, built: BuiltMerge, targetRepo: string): Promise<'moved' | 'target-moved' | 'lost'> {
    return deps.db.transaction(async (tx) => {
      const locked = await repository.lockIntent(intent.id, tx);
      if (locked?.state !== 'pending') return 'lost';
      try {
        await updateRef(targetRepo, `refs/heads/${intent.target_branch}`, built.newTarget, intent.expected_old_sha);
      } catch (error) {
        if (!(error instanceof RefConflictError)) throw error;
        await repository.transition(intent.id, ['pending'], 'failed', tx, 'target-moved');
        return 'target-moved';
      }
      await deps.onStep('merge:ref-moved');
      await deps.settlement.finalizeIn(locked, tx);
      return 'moved';
    });
  }

  async function attempt(user: User, opened: OpenedMergeRequest, input: MergeInput, first: boolean): Promise<Attempt> {
    const { project } = opened;
    const mergeRequest = first ? opened.mergeRequest : await deps.mergeRequests.findById(opened.mergeRequest.id);
    if (!mergeRequest || (!first && mergeRequest.state !== 'opened')) throw new MethodNotAllowedError();
    const head = mergeRequest.head_commit_sha;
    if (input.sha !== undefined && input.sha !== head) throw shaMismatch(head);
    const squash = squashOnMerge(project.squash_option, input.squash, mergeRequest.squash);
    const needDefaults = input.mergeCommitMessage === undefined || (squash && input.squashCommitMessage === undefined);
    // What the messages need from the database does not depend on git: read while git works.
    const messageInputs = Promise.all([
      deps.mergeRequests.usersByIds(mergeRequest.author_id === null ? [] : [mergeRequest.author_id]),
      needDefaults ? repository.commitTemplates(project.id) : null,
    ]);
    messageInputs.catch(() => undefined); // awaited below; a refusal before then must not leave it unhandled
    const targetRepo = storage.pathFor(project.id);
    const sourceRepo = mergeRequest.source_project_id === null ? null : storage.pathFor(mergeRequest.source_project_id);
    const [sourceTip, target, mergeRefTip] = await branchTips(mergeRequest, sourceRepo, targetRepo);
    // A push not yet recorded as a version: what the caller reviewed is not the branch any more.
    if (input.sha !== undefined && sourceTip !== null && sourceTip !== input.sha) throw shaMismatch(sourceTip);

    if (head && target) await ensureHead(mergeRequest, targetRepo, head);
    const stored = { mergeRefTip, recorded: mergeRequest.merge_ref_sha };
    const live = head && target ? await liveGitFacts(targetRepo, target, head, project.merge_method, stored) : { needRebase: false, conflict: false, trial: null };
    const fresh = freshGitFacts({ sourceExists: sourceTip !== null, targetExists: target !== null, conflict: live.conflict, needRebase: live.needRebase });
    const blocker = blockerOf((await deps.mergeability.evaluate(mergeRequest, project, fresh)).detailedMergeStatus);
    if (blocker !== null) {
      // GitLab's mergeable? trusts the stored "can be merged" and only then does the merge
      // itself meet the conflict (a target moved with no push event, so nothing rechecked):
      // a failed merge, 422 with merge_error, not a refusal.
      if (first && !targetConflictUnseen(blocker, { targetExists: target !== null, conflict: live.conflict }, mergeRequest)) throw new MethodNotAllowedError();
      return { kind: 'failed', mergeError: MERGE_MESSAGES[blockedDuringMergeReason(blocker)] };
    }

    const [users, templates] = await messageInputs;
    const author = mergeRequest.author_id === null ? null : (users.get(mergeRequest.author_id) ?? null);
    const defaults = templates
      ? await defaultMessages({ mergeRequest, templates, author, merger: user, repoPath: targetRepo, target: target!, head: head!, externalUrl: deps.externalUrl })
      : { merge: '', squash: '' };
    const merger = { name: user.name, email: user.email };
    let built: BuiltMerge;
    try {
      built = await buildMerge(targetRepo, {
        target: target!,
        head: head!,
        method: project.merge_method,
        squash,
        trial: live.trial,
        mergeMessage: input.mergeCommitMessage ?? defaults.merge,
        squashMessage: input.squashCommitMessage ?? defaults.squash,
        merger,
        squashAuthor: author ? { name: author.name, email: author.email } : merger,
      });
    } catch (error) {
      if (error instanceof MergeConflictError) return { kind: 'failed', mergeError: MERGE_MESSAGES.notMergeable };
      throw error;
    }
    await deps.onStep('merge:commits-written');

    const intent = await recordIntent(mergeRequest, {
      merge_request_id: mergeRequest.id,
      project_id: project.id,
      user_id: user.id,
      target_branch: mergeRequest.target_branch,
      merge_method: project.merge_method,
      source_sha: head!,
      expected_old_sha: target!,
      new_sha: built.newTarget,
      merge_commit_sha: built.mergeCommitSha,
      squash_commit_sha: built.squashCommitSha,
      delete_source_branch_as: sourceBranchDeleter(mergeRequest, input.shouldRemoveSourceBranch, user.id),
      should_remove_source_branch: input.shouldRemoveSourceBranch ?? null,
    });
    await deps.onStep('merge:intent-recorded');

    let moved: Awaited<ReturnType<typeof moveTarget>>;
    try {
      moved = await moveTarget(intent, built, targetRepo);
    } catch (error) {
      // git or the database failed around the move: settle the intent from what the repository holds.
      const settled = await deps.settlement.settle(intent.id);
      if (settled?.state === 'done') return { kind: 'merged' };
      throw error;
    }
    if (moved === 'target-moved') return { kind: 'retry' };
    if (moved === 'lost') return { kind: 'failed', mergeError: t(MERGE_MESSAGES.somethingWrong, { message: 'the merge was interrupted' }) };
    await deps.onStep('merge:finalized');
    return { kind: 'merged' };
  }

  return {
    canMerge,

    async merge(actor: Actor, idOrPath: string | number, iid: number, input: MergeInput): Promise<OpenedMergeRequest> {
      const user = actor.user;
      if (!user) throw new UnauthorizedError();
      const opened = await deps.mergeRequestsService.open(actor, idOrPath, iid);
      if (!(await canMerge(actor, opened))) throw new UnauthorizedError();
      for (let attemptNo = 1; ; attemptNo++) {
        const key = `${opened.project.id}:${opened.mergeRequest.target_branch}`;
        const outcome = await targetLock(key, () => attempt(user, opened, input, attemptNo === 1));
        if (outcome.kind === 'merged') return { ...opened, mergeRequest: (await deps.mergeRequests.findById(opened.mergeRequest.id))! };
        if (outcome.kind === 'retry' && attemptNo < MAX_ATTEMPTS) continue;
        const mergeError = outcome.kind === 'failed' ? outcome.mergeError : MERGE_MESSAGES.notMergeable;
        await repository.setMergeError(opened.mergeRequest.id, mergeError);
        // The stored trial merge may still say "can be merged" against the old target: bring
        // it up to date, so the page refreshed after the failure shows why (best effort).
        await deps.mergeability.recheck(opened.mergeRequest.id).catch(() => undefined);
        await deps.events.publish('merge_request.changed', { mergeRequestId: opened.mergeRequest.id, projectId: opened.project.id });
        throw new UnprocessableError(t(MERGE_MESSAGES.cannotMerge));
      }
    },
  };
}

export type MergeService = ReturnType<typeof createMergeService>;
