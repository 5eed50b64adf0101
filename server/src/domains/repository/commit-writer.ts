/**
 * The one write path for commits made through the API (files and commits
 * endpoints). It follows GitLab's Commits::CreateService checks, writes the
 * commit with plumbing (no work tree, git/plumbing-write.ts), moves the branch
 * by compare-and-swap, and records the write as a push so push events and
 * domain events happen for API writes as for `git push`.
 */
import { t } from '@tributary/contracts';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { CommitAction } from '../../git/commit-actions.js';
import { lastCommitForPath } from '../../git/commits.js';
import { commitTree, createCommit } from '../../git/plumbing-write.js';
import { updateRef } from '../../git/ref-updates.js';
import { branchRef, isValidFullRefName, validateBranchName } from '../../git/ref-names.js';
import { git } from '../../git/command.js';
import { isAncestor, readRef, resolveCommit } from '../../git/refs.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import { checkBranchUpdate, PUSH_MESSAGES } from '../protected-branches/push-rules.js';
import type { PushesService } from '../pushes/pushes.service.js';
import { ZERO_SHA, type RefUpdate } from '../pushes/push.js';
import type { PushRulesService } from '../push-rules/push-rules.service.js';
import type { RepositoryAccess, RepositoryHandle } from './repository-access.js';

/** GitLab's wording (app/services/commits/create_service.rb, files/*_service.rb). */
export const WRITE_MESSAGES = {
  notAllowed: 'You are not allowed to push into this branch',
  bothStarts: "You can't pass both start_branch and start_sha",
  invalidStartSha: "Invalid start_sha '%{sha}'",
  missingStartSha: "Cannot find start_sha '%{sha}'",
  notOnBranch: 'You can only create or edit files when you are on a branch',
  branchExists: "A branch called '%{branch}' already exists. Switch to that branch in order to make changes",
  newBranchInvalid: "Something went wrong when we tried to create '%{branch}' for you: %{message}",
} as const;

const FULL_SHA = /^[0-9a-f]{40}$/;

/** A `last_commit_id` the caller saw for a path; a different last commit there refuses the write. */
export interface LastCommitExpectation {
  path: string;
  lastCommitId: string;
  /** The refusal, in the wording of the endpoint that asked. */
  message: string;
}

export interface WriteCommitInput {
  branch: string;
  startBranch?: string;
  startSha?: string;
  /** GitLab's `force`: overwrite an existing `branch` with a commit on top of the start. */
  force?: boolean;
  message: string;
  authorName?: string;
  authorEmail?: string;
  actions: CommitAction[];
  expectations?: LastCommitExpectation[];
  /** The 403 body when the branch is protected against the caller (files and commits word it differently). */
  refusal?: string;
}

export function createCommitWriter(deps: {
  access: Pick<RepositoryAccess, 'pusher'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  pushes: Pick<PushesService, 'postReceive'>;
  /** the project's push rule, judged on the written commit before the branch moves */
  pushRules?: Pick<PushRulesService, 'check'>;
}) {
  /** The push rule's verdict on a commit this writer made, as GitLab checks API commits (a 400 with its message). */
  async function assertPushRule(actor: Actor, project: RepositoryHandle['project'], update: RefUpdate): Promise<void> {
    const refusal = await deps.pushRules?.check(actor, project, [update], { via: 'web' });
    if (refusal) throw new ValidationError(refusal);
  }

  /** The tip of an existing branch, or null (names git could not hold do not exist). */
  async function branchTip(repoPath: string, name: string): Promise<string | null> {
    if (!isValidFullRefName(branchRef(name))) return null;
    return (await readRef(repoPath, branchRef(name)))?.commit?.id ?? null;
  }

  /** Whether the repository has any branch (an empty one accepts a first commit on any branch). */
  async function hasBranches(repoPath: string): Promise<boolean> {
    const { stdout } = await git(repoPath).sub('for-each-ref').flag('--count=1', '--format=%(refname)').revisions('refs/heads/').run();
    return stdout.length > 0;
  }

  async function startCommit(repoPath: string, input: WriteCommitInput): Promise<string | null> {
    if (input.startSha !== undefined) {
      if (input.startBranch !== undefined) throw new ValidationError(t(WRITE_MESSAGES.bothStarts));
      if (!FULL_SHA.test(input.startSha)) throw new ValidationError(t(WRITE_MESSAGES.invalidStartSha, { sha: input.startSha }));
      const sha = await resolveCommit(repoPath, input.startSha);
      if (sha !== input.startSha) throw new ValidationError(t(WRITE_MESSAGES.missingStartSha, { sha: input.startSha }));
      return sha;
    }
    const startBranch = input.startBranch ?? input.branch;
    const tip = await branchTip(repoPath, startBranch);
    if (!tip && (await hasBranches(repoPath))) throw new ValidationError(t(WRITE_MESSAGES.notOnBranch));
    return tip;
  }

  return {
    /** Writes one commit on `input.branch`; returns its id. Nothing is written when a check fails. */
    async write(actor: Actor, handle: RepositoryHandle, input: WriteCommitInput): Promise<string> {
      const { project, repoPath } = handle;
      const user = actor.user;
      if (!user) throw new UnauthorizedError();
      const [pusher, protections] = await Promise.all([deps.access.pusher(actor, project), deps.protectedBranches.listForProject(project.id)]);
      const update = { branch: input.branch, creating: false, deleting: false, forced: false };
      if (checkBranchUpdate(pusher, update, protections) !== null) throw new ForbiddenError(input.refusal ?? t(WRITE_MESSAGES.notAllowed));

      const start = await startCommit(repoPath, input);
      const different = input.startSha !== undefined || (input.startBranch !== undefined && input.startBranch !== input.branch);
      const tip = await branchTip(repoPath, input.branch);
      if (different) {
        if (tip && !input.force) throw new ValidationError(t(WRITE_MESSAGES.branchExists, { branch: input.branch }));
        const invalid = validateBranchName(input.branch);
        if (invalid) throw new ValidationError(t(WRITE_MESSAGES.newBranchInvalid, { branch: input.branch, message: invalid }));
      }
      // Overwriting a branch whose tip the new commit does not contain is a force push.
      const forced = tip !== null && tip !== start && (start === null || !(await isAncestor(repoPath, tip, start)));
      if (forced && checkBranchUpdate(pusher, { ...update, forced }, protections) === PUSH_MESSAGES.protectedForce) {
        throw new ForbiddenError(t(PUSH_MESSAGES.protectedForce));
      }
      // A caller writing only through collaboration may fast-forward the branch, never create or rewrite it.
      if ((forced || tip === null) && checkBranchUpdate(pusher, { ...update, forced, creating: tip === null }, protections) === PUSH_MESSAGES.notAllowed) {
        throw new ForbiddenError(input.refusal ?? t(WRITE_MESSAGES.notAllowed));
      }

      for (const expectation of input.expectations ?? []) {
        const last = start ? await lastCommitForPath(repoPath, start, expectation.path) : null;
        if (last && last.id !== expectation.lastCommitId) throw new ValidationError(expectation.message);
      }

      const identity = { name: user.name, email: user.email };
      const author = { name: input.authorName ?? identity.name, email: input.authorEmail ?? identity.email };
      const { sha } = await createCommit(repoPath, {
        branch: input.branch,
        startSha: start,
        expectedOldSha: tip,
        actions: input.actions,
        message: input.message,
        author,
        committer: identity,
        beforeRefUpdate: (written) => assertPushRule(actor, project, { ref: branchRef(input.branch), oldSha: tip ?? ZERO_SHA, newSha: written }),
      });
      await deps.pushes.postReceive(user.id, project.id, [{ ref: branchRef(input.branch), oldSha: tip ?? ZERO_SHA, newSha: sha }]);
      return sha;
    },

    /**
     * Writes one commit on top of an existing branch with a tree `plan` computes from the
     * branch tip (revert and cherry-pick). The same push rules, compare-and-swap and push
     * event as write(); `plan` may throw to refuse, and nothing is written then.
     * With `dryRun`, everything but the commit and the ref update happens.
     */
    async writeTree(
      actor: Actor,
      handle: RepositoryHandle,
      input: { branch: string; message: string; refusal?: string; dryRun?: boolean; author?: { name: string; email: string; date?: Date }; plan: (tip: string) => Promise<string> },
    ): Promise<string | null> {
      const { project, repoPath } = handle;
      const user = actor.user;
      if (!user) throw new UnauthorizedError();
      const [pusher, protections] = await Promise.all([deps.access.pusher(actor, project), deps.protectedBranches.listForProject(project.id)]);
      const update = { branch: input.branch, creating: false, deleting: false, forced: false };
      if (checkBranchUpdate(pusher, update, protections) !== null) throw new ForbiddenError(input.refusal ?? t(WRITE_MESSAGES.notAllowed));
      const tip = await branchTip(repoPath, input.branch);
      if (!tip) throw new NotFoundError('Branch');
      const tree = await input.plan(tip);
      if (input.dryRun) return null;
      const identity = { name: user.name, email: user.email };
      const sha = await commitTree(repoPath, { tree, parents: [tip], message: input.message, author: input.author ?? identity, committer: identity });
      await assertPushRule(actor, project, { ref: branchRef(input.branch), oldSha: tip, newSha: sha });
      await updateRef(repoPath, branchRef(input.branch), sha, tip);
      await deps.pushes.postReceive(user.id, project.id, [{ ref: branchRef(input.branch), oldSha: tip, newSha: sha }]);
      return sha;
    },
  };
}

export type CommitWriter = ReturnType<typeof createCommitWriter>;
