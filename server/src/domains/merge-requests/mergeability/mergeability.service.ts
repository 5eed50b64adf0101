/**
 * Mergeability of merge requests: the trial merge kept current with the branches (recheck),
 * and the checks folded into `detailed_merge_status` (evaluate). GitLab's
 * MergeabilityCheckService + DetailedMergeStatusService, over refs and rows instead of
 * Redis and Sidekiq.
 *
 * evaluate() reads no git: the trial merge's verdict and what it was computed from are
 * stored on the merge request, so the widget, lists and GraphQL pay one query (blockers).
 * recheck() runs the trial merge when the stored one is stale; pushes mark requests
 * `checking` at once and a job rechecks them (merge-request-versions.service.ts).
 */
import type { DetailedMergeStatus, MergeabilityCheck } from '@tributary/contracts';
import { t } from '@tributary/contracts';
import type { Database, Queryable } from '../../../platform/db/database.js';
import { ValidationError } from '../../../platform/errors.js';
import type { DomainEvent, EventBus } from '../../../platform/events.js';
import { RefConflictError, type Identity } from '../../../git/index.js';
import type { RepositoryStorage } from '../../projects/repository-storage.js';
import type { MergeRequest } from '../merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests.repository.js';
import { factsOf, type HeadPipelineStatus, type MergeabilityFacts, type MergeabilitySettings } from './facts.js';
import { assess } from './fold.js';
import type { ChangedMergeRequest, MergeabilityRepository, StoredTrialMerge } from './mergeability.repository.js';
import { readBranchTips, removeMergeRef, runTrialMerge, type BranchTips } from './trial-merge.js';
import { mergeTemplate, renderCommitMessage } from '../merging/commit-message.js';
import { messageContext, type MessageSubject } from '../merging/default-messages.js';

export interface MergeabilityResult {
  detailedMergeStatus: DetailedMergeStatus;
  /** every check, in the order of the fold */
  checks: MergeabilityCheck[];
  /** commits on the target branch the head lacks (0 until counted) */
  divergedCommitsCount: number;
  /** the trial merge commit when it is clean and current */
  mergeRefSha: string | null;
}

/**
 * Git facts a caller measured itself just now (the merge checks the exact commits it is about
 * to merge), used instead of the stored trial merge's.
 */
export type FreshGitFacts = Partial<Pick<MergeabilityFacts, 'mergeStatus' | 'divergedCommitsCount' | 'sourceBranchExists'>>;

/** GitLab's lease: one minute; a process that dies holding it blocks the merge request no longer. */
export const LEASE_SECONDS = 60;
/** How long a caller waits for another process's trial merge before giving up (the job retries). */
const LEASE_WAIT_MS = 30_000;
const LEASE_POLL_MS = 50;
/** Who the trial merge commit names when the author is gone. */
const SYSTEM_IDENTITY: Identity = { name: 'Tributary', email: 'noreply@tributary.invalid' };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Is the stored trial merge the answer for these branch tips and the latest version? Pure. */
export function isCurrent(mergeRequest: MergeRequest, tips: BranchTips): boolean {
  if (mergeRequest.merge_status !== 'can_be_merged' && mergeRequest.merge_status !== 'cannot_be_merged') return false;
  if (mergeRequest.merge_checked_at === null || mergeRequest.merge_check_head_sha !== mergeRequest.head_commit_sha) return false;
  if (mergeRequest.merge_check_source_sha !== tips.source || mergeRequest.merge_check_target_sha !== tips.target) return false;
  // A clean result is only as good as the ref that holds it (someone may have deleted it).
  return mergeRequest.merge_status === 'cannot_be_merged' || (mergeRequest.merge_ref_sha !== null && mergeRequest.merge_ref_sha === tips.mergeRef);
}

/** GitLab's default merge commit message, for the trial merge commit. Pure. */
export function trialMergeMessage(mergeRequest: MessageSubject): string {
  const context = messageContext(mergeRequest, { author: null, merger: null, commits: [], externalUrl: '' });
  return `${renderCommitMessage(mergeTemplate(null), context)}\n`;
}

export function createMergeability(deps: {
  db: Pick<Database, 'transaction'>;
  repository: MergeabilityRepository;
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'usersByIds'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  events: Pick<EventBus, 'publishMany'>;
  /** Unresolved threads per merge request; the discussions issue supplies it. None until then. */
  unresolvedDiscussions?: (mergeRequestIds: readonly number[]) => Promise<Map<number, number>>;
  /** The status of each merge request's pipeline for its diff head (the pipelines domain, app.ts); none without it. */
  headPipelineStatuses?: (mergeRequests: readonly MergeRequest[]) => Promise<Map<number, HeadPipelineStatus>>;
}) {
  const unresolved = deps.unresolvedDiscussions ?? (async () => new Map<number, number>());
  const headPipelines = deps.headPipelineStatuses ?? (async () => new Map<number, HeadPipelineStatus>());

  function result(
    mergeRequest: MergeRequest,
    settings: MergeabilitySettings,
    context: { blockers: MergeRequest['state'][]; unresolvedDiscussions: number; headPipelineStatus: HeadPipelineStatus | null },
    fresh: FreshGitFacts = {},
  ): MergeabilityResult {
    const facts = factsOf(mergeRequest, settings, context);
    if (fresh.mergeStatus !== undefined) facts.mergeStatus = fresh.mergeStatus;
    if (fresh.divergedCommitsCount !== undefined) facts.divergedCommitsCount = fresh.divergedCommitsCount;
    if (fresh.sourceBranchExists !== undefined) facts.sourceBranchExists = fresh.sourceBranchExists;
    const { detailedMergeStatus, checks } = assess(facts);
    return {
      detailedMergeStatus,
      checks,
      divergedCommitsCount: facts.divergedCommitsCount ?? 0,
      mergeRefSha: mergeRequest.merge_status === 'can_be_merged' ? mergeRequest.merge_ref_sha : null,
    };
  }

  /** One `merge_request.changed` per request, written in one statement (a push may mark many). */
  async function publishChanged(mergeRequests: readonly ChangedMergeRequest[], tx?: Queryable): Promise<void> {
    const payloads = mergeRequests.map((mergeRequest) => ({ mergeRequestId: mergeRequest.id, projectId: mergeRequest.target_project_id }));
    await deps.events.publishMany('merge_request.changed', payloads, tx);
  }

  async function identityOf(mergeRequest: MergeRequest): Promise<Identity> {
    if (mergeRequest.author_id === null) return SYSTEM_IDENTITY;
    const author = (await deps.mergeRequests.usersByIds([mergeRequest.author_id])).get(mergeRequest.author_id);
    return author ? { name: author.name, email: author.email } : SYSTEM_IDENTITY;
  }

  /** The trial merge for the current tips (or "cannot be merged" when a branch is missing). */
  async function trialMerge(mergeRequest: MergeRequest, tips: BranchTips, repoPath: string): Promise<StoredTrialMerge> {
    const head = mergeRequest.head_commit_sha!;
    const base = { headSha: head, sourceSha: tips.source, targetSha: tips.target };
    if (tips.source === null || tips.target === null) {
      // GitLab's broken?: nothing to merge from or into.
      await removeMergeRef(repoPath, mergeRequest.iid, tips.mergeRef);
      return { ...base, mergeStatus: 'cannot_be_merged', mergeRefSha: null, divergedCommitsCount: null };
    }
    const outcome = await runTrialMerge({
      repoPath,
      iid: mergeRequest.iid,
      target: tips.target,
      head,
      currentMergeRef: tips.mergeRef,
      message: trialMergeMessage(mergeRequest),
      // Looked up while git merges: it is needed only for a clean result's commit.
      identity: identityOf(mergeRequest),
    });
    return { ...base, mergeStatus: outcome.clean ? 'can_be_merged' : 'cannot_be_merged', mergeRefSha: outcome.mergeRefSha, divergedCommitsCount: outcome.divergedCommitsCount };
  }

  /**
   * Makes the stored trial merge current and returns the merge request as stored; a no-op
   * (one git call) when it is. One process at a time per merge request (the lease); others
   * wait for it. Only open requests with a version are checked (others: returned as they are).
   */
  async function recheck(mergeRequestId: number): Promise<MergeRequest | undefined> {
    const deadline = Date.now() + LEASE_WAIT_MS;
    for (let conflicts = 0; ; ) {
      const claim = await deps.repository.claimLease(mergeRequestId, LEASE_SECONDS);
      if (claim === 'not-open') return deps.mergeRequests.findById(mergeRequestId);
      if (claim === 'busy') {
        if (Date.now() > deadline) throw new ValidationError(t('Merge ref cannot be updated'));
        await wait(LEASE_POLL_MS);
        continue;
      }
      let leased = true;
      try {
        const mergeRequest = await deps.mergeRequests.findById(mergeRequestId);
        if (!mergeRequest || mergeRequest.latest_diff_id === null || mergeRequest.head_commit_sha === null) return mergeRequest;
        const targetRepo = deps.storage.pathFor(mergeRequest.target_project_id);
        const sourceRepo = mergeRequest.source_project_id === null ? null : deps.storage.pathFor(mergeRequest.source_project_id);
        const tips = await readBranchTips({ targetRepo, sourceRepo, sourceBranch: mergeRequest.source_branch, targetBranch: mergeRequest.target_branch, iid: mergeRequest.iid });
        if (isCurrent(mergeRequest, tips)) return mergeRequest;
        const stored = await trialMerge(mergeRequest, tips, targetRepo);
        const diffId = mergeRequest.latest_diff_id;
        const kept = await deps.db.transaction(async (tx) => {
          const done = await deps.repository.storeTrialMerge(mergeRequest.id, diffId, stored, tx);
          if (done) await publishChanged([mergeRequest], tx);
          return done;
        });
        leased = false;
        if (!kept) return deps.mergeRequests.findById(mergeRequestId);
        return Object.assign(mergeRequest, {
          merge_status: stored.mergeStatus,
          merge_check_head_sha: stored.headSha,
          merge_check_source_sha: stored.sourceSha,
          merge_check_target_sha: stored.targetSha,
          merge_ref_sha: stored.mergeRefSha,
          diverged_commits_count: stored.divergedCommitsCount,
          merge_checked_at: new Date(),
          merge_check_lease_until: null,
        });
      } catch (error) {
        // The merge ref moved under us (a lease that expired mid-way): read again, a few times.
        if (!(error instanceof RefConflictError) || ++conflicts > 2) throw error;
      } finally {
        if (leased) await deps.repository.releaseLease(mergeRequestId);
      }
    }
  }

  return {
    /**
     * The checks and detailed status of one merge request, with its target project's
     * settings; `fresh` git facts, when given, replace the stored trial merge's.
     */
    async evaluate(mergeRequest: MergeRequest, project: MergeabilitySettings, fresh?: FreshGitFacts): Promise<MergeabilityResult> {
      const [blockers, threads, pipelines] = await Promise.all([deps.repository.blockerStates([mergeRequest.id]), unresolved([mergeRequest.id]), headPipelines([mergeRequest])]);
      const context = { blockers: blockers.get(mergeRequest.id) ?? [], unresolvedDiscussions: threads.get(mergeRequest.id) ?? 0, headPipelineStatus: pipelines.get(mergeRequest.id) ?? null };
      return result(mergeRequest, project, context, fresh);
    },

    /** The same for a page of merge requests (any projects), in four queries whatever its length. */
    async evaluateMany(mergeRequests: readonly MergeRequest[]): Promise<Map<number, MergeabilityResult>> {
      const ids = mergeRequests.map((mr) => mr.id);
      const [settings, blockers, threads, pipelines] = await Promise.all([
        deps.repository.settings(mergeRequests.map((mr) => mr.target_project_id)),
        deps.repository.blockerStates(ids),
        unresolved(ids),
        headPipelines(mergeRequests),
      ]);
      const results = new Map<number, MergeabilityResult>();
      for (const mergeRequest of mergeRequests) {
        const projectSettings = settings.get(mergeRequest.target_project_id);
        if (!projectSettings) continue; // the project is being deleted
        const context = { blockers: blockers.get(mergeRequest.id) ?? [], unresolvedDiscussions: threads.get(mergeRequest.id) ?? 0, headPipelineStatus: pipelines.get(mergeRequest.id) ?? null };
        results.set(mergeRequest.id, result(mergeRequest, projectSettings, context));
      }
      return results;
    },

    recheck,

    /**
     * GET …/merge_ref: GitLab rechecks synchronously and answers the merge ref's commit, or
     * 400 'Merge request is not mergeable'.
     */
    async mergeRefCommit(mergeRequestId: number): Promise<string> {
      const mergeRequest = await recheck(mergeRequestId);
      if (!mergeRequest || mergeRequest.state !== 'opened' || mergeRequest.merge_status !== 'can_be_merged' || mergeRequest.merge_ref_sha === null) {
        throw new ValidationError(t('Merge request is not mergeable'));
      }
      return mergeRequest.merge_ref_sha;
    },

    /**
     * A push moved `branches` of the project: their open merge requests show `checking` until
     * the refresh job has rechecked them, and their pages hear it. In the push's transaction.
     */
    async markChecking(projectId: number, branches: readonly string[], tx: Queryable): Promise<void> {
      await publishChanged(await deps.repository.markChecking(projectId, branches, tx), tx);
    },

    publishChanged,

    /**
     * `merge_request.changed` subscriber: a merged request unblocks the requests it blocks,
     * whose pages must hear of it. Only merges change a dependant's BLOCKED_STATUS (a closed
     * blocker still blocks, and a merged one never reopens), and dependants are open, so
     * this never cascades further. Each process that hears the event announces it once.
     */
    async onChanged(event: DomainEvent<'merge_request.changed'>): Promise<void> {
      const unblocked = await deps.repository.openUnblockedBy(event.payload.mergeRequestId);
      if (unblocked.length > 0) await publishChanged(unblocked);
    },
  };
}

export type Mergeability = ReturnType<typeof createMergeability>;
