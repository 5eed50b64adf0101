import type { Database } from '../../platform/db/database.js';
import type { DomainEvent } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { JobQueue } from '../../platform/queue.js';
import { countCommits, diffTrees, fetchCommit, mergeBase, mergeTree, readRef, readRefs } from '../../git/index.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { MergeRequestDiffsRepository } from './merge-request-diffs.repository.js';
import { updateVersionRefs } from './merge-request-refs.js';
import type { MergeRequest, MergeStatus } from './merge-request.js';
import type { MergeRequestsRepository } from './merge-requests.repository.js';
import { decideVersion, fileRows, summarizeVersion, type VersionDecision } from './version-rules.js';

/** The background job that follows a push: new versions for sources, rechecks for targets. */
export const REFRESH_JOB = 'merge_requests.refresh';

const BRANCH_PREFIX = 'refs/heads/';

export interface RefreshPayload {
  projectId: number;
  branches: string[];
}

export interface RecordResult {
  decision: VersionDecision;
  versionId?: number;
}

/**
 * Keeps merge requests current with their branches: records diff versions (GitLab's
 * MergeRequestDiff), maintains the refs in the target repository, and caches git
 * mergeability in merge_status. Every step is idempotent, so a job that runs twice, or two
 * processes that refresh at once, leave one version and the same refs.
 */
export function createMergeRequestVersions(deps: {
  db: Pick<Database, 'transaction'>;
  mergeRequests: Pick<MergeRequestsRepository, 'lock' | 'findById' | 'openWithSource' | 'openWithTarget' | 'claimPushRefresh'>;
  diffs: Pick<MergeRequestDiffsRepository, 'insert' | 'latest' | 'setMergeStatus'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  queue: Pick<JobQueue, 'enqueue'>;
  logger: Pick<Logger, 'warn'>;
}) {
  const branchTip = async (repoPath: string, branch: string) => (await readRef(repoPath, `${BRANCH_PREFIX}${branch}`))?.target ?? null;

  /** A trial merge of head into start (merge-tree, no work tree): GitLab's git mergeability. */
  async function mergeability(repoPath: string, start: string, head: string): Promise<MergeStatus> {
    try {
      const result = await mergeTree(repoPath, start, head);
      return result?.clean ? 'can_be_merged' : 'cannot_be_merged';
    } catch {
      return 'cannot_be_merged'; // unrelated histories and the like
    }
  }

  /** Both branch tips; one git call when source and target share a repository. */
  async function branchTips(sourceRepo: string, targetRepo: string, mergeRequest: MergeRequest): Promise<[string | null, string | null]> {
    const source = `${BRANCH_PREFIX}${mergeRequest.source_branch}`;
    const target = `${BRANCH_PREFIX}${mergeRequest.target_branch}`;
    if (sourceRepo !== targetRepo) return Promise.all([branchTip(sourceRepo, mergeRequest.source_branch), branchTip(targetRepo, mergeRequest.target_branch)]);
    const refs = new Map((await readRefs(targetRepo, [source, target])).map((ref) => [ref.ref, ref.target]));
    return [refs.get(source) ?? null, refs.get(target) ?? null];
  }

  /**
   * Records a new version when the decision rules say so (version-rules.ts). Git work
   * happens before the transaction; inside it the row lock and a second look at the latest
   * version make concurrent refreshes record one version, not two. Mergeability is not part
   * of it: callers run checkMergeability() next (GitLab checks it separately too).
   */
  async function record(mergeRequest: MergeRequest, options: { retargeted?: boolean } = {}): Promise<RecordResult> {
    if (mergeRequest.source_project_id === null) return { decision: 'source-missing' };
    const targetRepo = deps.storage.pathFor(mergeRequest.target_project_id);
    const sourceRepo = deps.storage.pathFor(mergeRequest.source_project_id);
    const [[head, start], latest] = await Promise.all([branchTips(sourceRepo, targetRepo, mergeRequest), deps.diffs.latest(mergeRequest.id)]);
    const facts = { state: mergeRequest.state, sourceHead: head, targetHead: start, retargeted: options.retargeted ?? false };
    const decision = decideVersion({ ...facts, latest: latest ?? null });
    if (decision !== 'record' || !head || !start) return { decision };

    // A fork's commits must live in the target repository before anything points at them.
    if (sourceRepo !== targetRepo) await fetchCommit(targetRepo, sourceRepo, head);
    const base = await mergeBase(targetRepo, start, head);
    const previous = latest ? { head: latest.head_commit_sha, start: latest.start_commit_sha } : null;
    const [diff, commitsCount] = await Promise.all([
      diffTrees(targetRepo, base ?? start, head),
      countCommits(targetRepo, { ref: `${start}..${head}` }),
      updateVersionRefs(targetRepo, { iid: mergeRequest.iid, head, start, previous }),
    ]);

    const versionId = await deps.db.transaction(async (tx) => {
      const locked = await deps.mergeRequests.lock(mergeRequest.id, tx);
      const current = await deps.diffs.latest(mergeRequest.id, tx);
      if (!locked || decideVersion({ ...facts, state: locked.state, latest: current ?? null }) !== 'record') return undefined;
      const summary = summarizeVersion(diff.diffs, diff.overflow);
      return deps.diffs.insert(
        mergeRequest.id,
        { base_commit_sha: base, start_commit_sha: start, head_commit_sha: head, commits_count: commitsCount ?? 0, ...summary },
        fileRows(diff.diffs),
        'unchecked',
        tx,
      );
    });
    return versionId === undefined ? { decision: 'unchanged' } : { decision, versionId };
  }

  /**
   * Git mergeability of the latest version against the target branch as it is now (a trial
   * merge-tree, no work tree); the result is kept unless a newer version replaced it meanwhile.
   */
  async function checkMergeability(mergeRequestId: number): Promise<void> {
    const mergeRequest = await deps.mergeRequests.findById(mergeRequestId);
    if (!mergeRequest || mergeRequest.latest_diff_id === null || mergeRequest.head_commit_sha === null) return;
    const targetRepo = deps.storage.pathFor(mergeRequest.target_project_id);
    const start = await branchTip(targetRepo, mergeRequest.target_branch);
    if (!start) return;
    await deps.diffs.setMergeStatus(mergeRequest.id, mergeRequest.latest_diff_id, await mergeability(targetRepo, start, mergeRequest.head_commit_sha));
  }

  /** A version if one is due, then mergeability. */
  async function refreshOne(mergeRequest: MergeRequest, options: { retargeted?: boolean } = {}): Promise<RecordResult> {
    const result = await record(mergeRequest, options);
    if (result.versionId !== undefined || mergeRequest.merge_status === 'unchecked') await checkMergeability(mergeRequest.id);
    return result;
  }

  /** Records a version now; when that fails, leaves it to the refresh job (with retries). */
  async function recordOrSchedule(mergeRequest: MergeRequest, options: { retargeted?: boolean } = {}): Promise<void> {
    try {
      await refreshOne(mergeRequest, options);
    } catch (error) {
      deps.logger.warn({ err: error, mergeRequestId: mergeRequest.id }, 'recording a merge request version failed; scheduled a refresh');
      await deps.queue.enqueue(REFRESH_JOB, { mergeRequestId: mergeRequest.id, retargeted: options.retargeted ?? false });
    }
  }

  return {
    record,
    checkMergeability,
    recordOrSchedule,

    /** The `repository.pushed` subscriber: one refresh job per push, whichever process hears it first. */
    async onPushed(event: DomainEvent<'repository.pushed'>): Promise<void> {
      const branches = event.payload.refs.filter((ref) => ref.ref.startsWith(BRANCH_PREFIX)).map((ref) => ref.ref.slice(BRANCH_PREFIX.length));
      if (branches.length === 0) return;
      await deps.db.transaction(async (tx) => {
        if (!(await deps.mergeRequests.claimPushRefresh(event.id, tx))) return;
        const payload: RefreshPayload = { projectId: event.payload.projectId, branches };
        await deps.queue.enqueue(REFRESH_JOB, { ...payload }, { tx });
      });
    },

    /** The REFRESH_JOB handler: after a push (projectId + branches) or for one merge request. */
    async refresh(payload: Record<string, unknown>): Promise<void> {
      if (typeof payload.mergeRequestId === 'number') {
        const mergeRequest = await deps.mergeRequests.findById(payload.mergeRequestId);
        if (mergeRequest) await refreshOne(mergeRequest, { retargeted: payload.retargeted === true });
        return;
      }
      const { projectId, branches } = payload as unknown as RefreshPayload;
      for (const branch of branches) {
        for (const mergeRequest of await deps.mergeRequests.openWithSource(projectId, branch)) await refreshOne(mergeRequest);
        // The target moved: same version (GitLab keeps it), mergeability checked again.
        for (const mergeRequest of await deps.mergeRequests.openWithTarget(projectId, branch)) await checkMergeability(mergeRequest.id);
      }
    },
  };
}

export type MergeRequestVersions = ReturnType<typeof createMergeRequestVersions>;
