import type { Database, Queryable } from '../../platform/db/database.js';
import type { DomainEvent, EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { JobPayloadMap, JobQueue } from '../../platform/queue.js';
import { countCommits, diffTreeStats, fetchCommit, mergeBase, readRefTips } from '../../git/index.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { MergeRequestDiffsRepository } from './merge-request-diffs.repository.js';
import { updateVersionRefs } from './merge-request-refs.js';
import type { MergeRequest } from './merge-request.js';
import type { MergeRequestsRepository } from './merge-requests.repository.js';
import type { Mergeability } from './mergeability/index.js';
import { decideVersion, fileRows, summarizeVersion, type VersionDecision } from './version-rules.js';

/** The background job that follows a push: new versions for sources, rechecks for targets. */
export const REFRESH_JOB = 'merge_requests.refresh' satisfies keyof JobPayloadMap;

const BRANCH_PREFIX = 'refs/heads/';

export interface RefreshPayload {
  projectId: number;
  branches: string[];
  /** who pushed (the merge request pipeline runs as them) */
  userId?: number | null;
}

/** Who caused a new version (the pusher, or who opened the request): its merge request pipeline runs as them. */
export interface RecordOptions {
  retargeted?: boolean;
  userId?: number | null;
}

export interface RecordResult {
  decision: VersionDecision;
  versionId?: number;
}

/**
 * Keeps merge requests current with their branches: records diff versions (GitLab's
 * MergeRequestDiff), maintains the refs in the target repository, and has the trial merge
 * rechecked (mergeability/). Every version and trial merge stored announces
 * `merge_request.changed` in its transaction, for the widget's live updates. Every step is idempotent, so a job that runs twice, or two
 * processes that refresh at once, leave one version and the same refs.
 */
export function createMergeRequestVersions(deps: {
  db: Pick<Database, 'transaction'>;
  mergeRequests: Pick<MergeRequestsRepository, 'lock' | 'update' | 'findById' | 'openWithSource' | 'openWithTarget'>;
  diffs: Pick<MergeRequestDiffsRepository, 'insert' | 'latest'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  queue: Pick<JobQueue, 'enqueue'>;
  logger: Pick<Logger, 'warn'>;
  mergeability: Pick<Mergeability, 'recheck' | 'markChecking' | 'publishChanged'>;
  /** announces `merge_request.version_recorded` (the notes domain traces diff threads onto the version) */
  events?: Pick<EventBus, 'publish'>;
}) {
  const branchTip = async (repoPath: string, branch: string) => (await readRefTips(repoPath, [`${BRANCH_PREFIX}${branch}`])).get(`${BRANCH_PREFIX}${branch}`) ?? null;

  /** Both branch tips, from the repositories' ref files (git/ref-files.ts: no git process). */
  async function branchTips(sourceRepo: string, targetRepo: string, mergeRequest: MergeRequest): Promise<[string | null, string | null]> {
    const source = `${BRANCH_PREFIX}${mergeRequest.source_branch}`;
    const target = `${BRANCH_PREFIX}${mergeRequest.target_branch}`;
    if (sourceRepo !== targetRepo) return Promise.all([branchTip(sourceRepo, mergeRequest.source_branch), branchTip(targetRepo, mergeRequest.target_branch)]);
    const refs = await readRefTips(targetRepo, [source, target]);
    return [refs.get(source) ?? null, refs.get(target) ?? null];
  }

  /**
   * Records a new version when the decision rules say so (version-rules.ts). Git work
   * happens before the transaction; inside it the row lock and a second look at the latest
   * version make concurrent refreshes record one version, not two. Mergeability is not part
   * of it: the version is stored `checking` and callers run checkMergeability() next (GitLab
   * checks it separately too).
   */
  async function record(mergeRequest: MergeRequest, options: RecordOptions = {}): Promise<RecordResult> {
    if (mergeRequest.source_project_id === null) return { decision: 'source-missing' };
    const targetRepo = deps.storage.pathFor(mergeRequest.target_project_id);
    const sourceRepo = deps.storage.pathFor(mergeRequest.source_project_id);
    const [[head, start], latest] = await Promise.all([branchTips(sourceRepo, targetRepo, mergeRequest), deps.diffs.latest(mergeRequest.id)]);
    const facts = { state: mergeRequest.state, sourceHead: head, targetHead: start, retargeted: options.retargeted ?? false };
    const decision = decideVersion({ ...facts, latest: latest ?? null });
    if (decision !== 'record' || !head || !start) return { decision };

    // A fork's commits must live in the target repository before anything points at them.
    if (sourceRepo !== targetRepo) await fetchCommit(targetRepo, sourceRepo, head);
    const previous = latest ? { head: latest.head_commit_sha, start: latest.start_commit_sha } : null;
    // The diff waits for the merge base; counting commits and moving the refs need neither.
    // Paths, flags and line counts only: patch text is regenerated from the SHAs when read.
    const [{ base, diff }, commitsCount] = await Promise.all([
      mergeBase(targetRepo, start, head).then(async (found) => ({ base: found, diff: await diffTreeStats(targetRepo, found ?? start, head) })),
      countCommits(targetRepo, { ref: `${start}..${head}` }),
      updateVersionRefs(targetRepo, { iid: mergeRequest.iid, head, start, previous }),
    ]);

    const versionId = await deps.db.transaction(async (tx) => {
      const locked = await deps.mergeRequests.lock(mergeRequest.id, tx);
      const current = await deps.diffs.latest(mergeRequest.id, tx);
      if (!locked || decideVersion({ ...facts, state: locked.state, latest: current ?? null }) !== 'record') return undefined;
      const summary = summarizeVersion(diff.diffs, diff.overflow);
      const id = await deps.diffs.insert(
        mergeRequest.id,
        { base_commit_sha: base, start_commit_sha: start, head_commit_sha: head, commits_count: commitsCount ?? 0, ...summary },
        fileRows(diff.diffs),
        'checking',
        tx,
      );
      // A push to the source clears the last merge or rebase error (GitLab's RefreshService): the
      // branch it was about is gone, so 'Rebase failed' no longer outlives a resolved conflict.
      if (locked.merge_error !== null && current && current.head_commit_sha !== head) await deps.mergeRequests.update(mergeRequest.id, { merge_error: null }, tx);
      await deps.mergeability.publishChanged([mergeRequest], tx);
      await deps.events?.publish('merge_request.version_recorded', { mergeRequestId: mergeRequest.id, projectId: mergeRequest.target_project_id, versionId: id, userId: options.userId ?? null }, tx);
      return id;
    });
    return versionId === undefined ? { decision: 'unchanged' } : { decision, versionId };
  }

  /**
   * The trial merge of the latest version into the target branch as it is now
   * (mergeability/: refs/merge-requests/:iid/merge); nothing to do when the stored one is
   * still current, and a deleted branch is noticed here too.
   */
  async function checkMergeability(mergeRequestId: number): Promise<void> {
    await deps.mergeability.recheck(mergeRequestId);
  }

  /** A version if one is due, then mergeability. */
  async function refreshOne(mergeRequest: MergeRequest, options: RecordOptions = {}): Promise<RecordResult> {
    const result = await record(mergeRequest, options);
    await checkMergeability(mergeRequest.id);
    return result;
  }

  /** Records a version now; when that fails, leaves it to the refresh job (with retries). */
  async function recordOrSchedule(mergeRequest: MergeRequest, options: RecordOptions = {}): Promise<void> {
    try {
      await refreshOne(mergeRequest, options);
    } catch (error) {
      deps.logger.warn({ err: error, mergeRequestId: mergeRequest.id }, 'recording a merge request version failed; scheduled a refresh');
      await deps.queue.enqueue(REFRESH_JOB, { mergeRequestId: mergeRequest.id, retargeted: options.retargeted ?? false, userId: options.userId ?? null });
    }
  }

  return {
    record,
    checkMergeability,
    recordOrSchedule,

    /**
     * The `repository.pushed` reaction, in the push's transaction: one refresh job per push,
     * enqueued once however many processes run (platform/events.ts).
     */
    async onPushed(event: DomainEvent<'repository.pushed'>, tx: Queryable): Promise<void> {
      const branches = event.payload.refs.filter((ref) => ref.ref.startsWith(BRANCH_PREFIX)).map((ref) => ref.ref.slice(BRANCH_PREFIX.length));
      if (branches.length === 0) return;
      const payload: RefreshPayload = { projectId: event.payload.projectId, branches, userId: event.payload.userId };
      await deps.queue.enqueue(REFRESH_JOB, { ...payload }, { tx });
      // Their merge requests say `checking` from now until the job has rechecked them (GitLab).
      await deps.mergeability.markChecking(event.payload.projectId, branches, tx);
    },

    /** The REFRESH_JOB handler: after a push (projectId + branches) or for one merge request. */
    async refresh(payload: JobPayloadMap[typeof REFRESH_JOB]): Promise<void> {
      if ('mergeRequestId' in payload) {
        const mergeRequest = await deps.mergeRequests.findById(payload.mergeRequestId);
        if (mergeRequest) await refreshOne(mergeRequest, { retargeted: payload.retargeted === true, userId: payload.userId ?? null });
        return;
      }
      const { projectId, branches } = payload;
      for (const branch of branches) {
        for (const mergeRequest of await deps.mergeRequests.openWithSource(projectId, branch)) await refreshOne(mergeRequest, { userId: payload.userId ?? null });
        // The target moved: same version (GitLab keeps it), mergeability checked again.
        for (const mergeRequest of await deps.mergeRequests.openWithTarget(projectId, branch)) await checkMergeability(mergeRequest.id);
      }
    },
  };
}

export type MergeRequestVersions = ReturnType<typeof createMergeRequestVersions>;
