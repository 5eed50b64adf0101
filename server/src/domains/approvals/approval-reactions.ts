/**
 * What approvals do when something else happens, each in the transaction of its cause:
 *
 * - a merge request is opened: the project's rules for its target branch are copied to it
 *   (its own rules, which it may then edit when the project allows overrides);
 * - a push records a new version: unless the project retains approvals on push, approvals are
 *   removed, except, beyond GitLab, those given to a diff identical to the new one (the patch's
 *   content is compared, not commit SHAs: a rebase onto a target that touched none of the
 *   merge request's files, or a reworded commit, keeps them), with a system note for each.
 *   When approvals are retained and "remove only code owner approvals whose files changed" is
 *   on, the owners of the changed files lose theirs.
 *
 * The diff is read with git inside the version's transaction: an approval must never outlive
 * the push that invalidates it, not even until a job runs.
 */
import { git } from '../../git/index.js';
import type { Queryable } from '../../platform/db/database.js';
import type { DomainEvent } from '../../platform/events.js';
import type { Mergeability } from '../merge-requests/mergeability/index.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { ApprovalLoader } from './approval-loader.js';
import type { ApprovalsRepository } from './approvals.repository.js';
import { diffContentHash } from './approvals.service.js';
import type { CodeOwners } from './code-owners.js';

/** Files changed between two commits (for selective code owner removals). */
async function changedPaths(repoPath: string, from: string, to: string): Promise<string[]> {
  const { stdout } = await git(repoPath).config('core.quotePath', 'false').sub('diff-tree').flag('-r', '--name-only', '-z', '--no-renames').revisions(from, to).run();
  return stdout.toString('utf8').split('\0').filter(Boolean);
}

export function createApprovalReactions(deps: {
  repository: ApprovalsRepository;
  loader: Pick<ApprovalLoader, 'settingsOf' | 'appliesTo'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'recordEvent' | 'usersByIds'>;
  projects: Pick<ProjectsRepository, 'findById'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  mergeability: Pick<Mergeability, 'publishChanged'>;
  codeOwners: CodeOwners;
}) {
  const { repository } = deps;


  return {
    /** `merge_request.event_recorded`: an opened merge request gets the project's rules. */
    async onEventRecorded(event: DomainEvent<'merge_request.event_recorded'>, tx: Queryable): Promise<void> {
      if ((await repository.eventAction(event.payload.eventId, tx)) !== 'opened') return;
      const mergeRequest = await deps.mergeRequests.findById(event.payload.mergeRequestId, tx);
      if (!mergeRequest) return;
      const [rules, protectedBranches] = await Promise.all([repository.projectRules(mergeRequest.target_project_id, tx), repository.protectedBranches(mergeRequest.target_project_id, tx)]);
      const applicable = rules.filter((rule) => deps.loader.appliesTo(rule, mergeRequest.target_branch, protectedBranches));
      await repository.copyProjectRules(mergeRequest.target_project_id, mergeRequest.id, applicable.map((rule) => rule.id), tx);
    },

    /** `merge_request.version_recorded`: a push removes the approvals it invalidates. */
    async onVersionRecorded(event: DomainEvent<'merge_request.version_recorded'>, tx: Queryable): Promise<void> {
      const approvals = await repository.approvals(event.payload.mergeRequestId, tx);
      if (approvals.length === 0) return;
      const [latest, previous] = await repository.latestVersions(event.payload.mergeRequestId, tx);
      // Only a new head is a push (a retarget or reopen records a version with the same head).
      if (!latest || !previous || latest.head_commit_sha === previous.head_commit_sha) return;
      const [mergeRequest, project] = await Promise.all([deps.mergeRequests.findById(event.payload.mergeRequestId, tx), deps.projects.findById(event.payload.projectId, tx)]);
      if (!mergeRequest || !project) return;
      const { settings } = await deps.loader.settingsOf(project, tx);
      const repoPath = deps.storage.pathFor(mergeRequest.target_project_id);
      const actorId = mergeRequest.author_id;

      let removed: number[] = [];
      let kept: number[] = [];
      if (settings.retainApprovalsOnPush) {
        if (!settings.selectiveCodeOwnerRemovals) return;
        const owners = new Set(await deps.codeOwners.approversForPaths(project, mergeRequest, await changedPaths(repoPath, previous.head_commit_sha, latest.head_commit_sha), tx));
        const ids = approvals.map((approval) => approval.user_id).filter((id) => owners.has(id));
        if (ids.length === 0) return;
        removed = await repository.deleteApprovals(mergeRequest.id, ids, tx);
      } else {
        const content = await diffContentHash(repoPath, latest);
        kept = approvals.filter((approval) => content !== null && approval.patch_id_sha === content).map((approval) => approval.user_id);
        const drop = approvals.map((approval) => approval.user_id).filter((id) => !kept.includes(id));
        if (drop.length > 0) removed = await repository.deleteApprovals(mergeRequest.id, drop, tx);
        if (kept.length > 0) await repository.moveApprovals(mergeRequest.id, latest.head_commit_sha, tx);
      }
      for (const userId of removed) await repository.setReviewerState(mergeRequest.id, userId, 'unapproved', tx);
      if (removed.length > 0) await deps.mergeRequests.recordEvent(mergeRequest.id, actorId, 'approvals_reset', { from: await repository.usernames(removed, tx), to: 'push' }, tx);
      if (kept.length > 0) await deps.mergeRequests.recordEvent(mergeRequest.id, actorId, 'approvals_kept', { from: await repository.usernames(kept, tx) }, tx);
      await deps.mergeability.publishChanged([mergeRequest], tx);
    },
  };
}

export type ApprovalReactions = ReturnType<typeof createApprovalReactions>;
