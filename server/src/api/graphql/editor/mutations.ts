/**
 * GitLab's mutations for reviewing in the editor. Each one calls the service its REST route
 * calls, with the caller of the request; `mutation()` turns refusals into GitLab's answers
 * (errors.ts). Mutations write, so a token needs the `api` scope, as for the REST API's
 * writes; the endpoint checks a cookie session's CSRF token on every POST.
 */
import type { Actor } from '../../../auth/actor.js';
import { ConflictError, MethodNotAllowedError, UnprocessableError } from '../../../platform/errors.js';
import { assertApiScope } from '../../../auth/authorizer.js';
import type { OpenedMergeRequest } from '../../../domains/merge-requests/merge-requests.service.js';
import type { MergeRequestRef } from '../../../domains/notes/note-access.js';
import { emojiCharacter } from '../../../domains/notes/emoji.js';
import { parsePosition } from '../../../domains/notes/position.js';
import type { User } from '../../../domains/users/user.js';
import { recordId, type ParsedGlobalId } from '../global-id.js';
import type { GraphqlContext } from '../resolvers.js';
import type { MergeRequestNode } from '../widget/request-scope.js';
import type { DiscussionNode, EditorDeps, NoteNode } from './deps.js';
import { mutation, resourceNotAvailable } from './errors.js';

export type Mutation<I> = (parent: unknown, args: { input: I & { clientMutationId?: string | null } }, context: GraphqlContext) => Promise<unknown>;

/** A merge request named by project path and iid, as GitLab's mutation inputs name it. */
export interface MergeRequestInput {
  projectPath: string;
  iid: string;
}

type OperationMode = 'REPLACE' | 'APPEND' | 'REMOVE';

/** The new user list of an assignee or reviewer mutation (GitLab's MutationOperationMode). Pure. */
export function applyOperationMode(current: readonly number[], named: readonly number[], mode: OperationMode): number[] {
  if (mode === 'APPEND') return [...new Set([...current, ...named])];
  if (mode === 'REMOVE') return current.filter((id) => !named.includes(id));
  return [...new Set(named)];
}

/** The signed-in caller with a token scope that may write; anything else names nothing. */
export function writer(ctx: GraphqlContext): Actor {
  const actor = ctx.scope.actor;
  if (!actor.user) throw resourceNotAvailable();
  try {
    assertApiScope(actor, 'POST');
  } catch {
    throw resourceNotAvailable();
  }
  return actor;
}

/** An iid is a positive integer in a String! (GitLab's type); anything else names nothing. */
export function iidOf(iid: string): number {
  if (!/^\d{1,9}$/.test(iid) || Number(iid) === 0) throw resourceNotAvailable();
  return Number(iid);
}

/** GitLab's messages of a refused mergeRequestAccept (Mutations::MergeRequests::Accept). */
export const ACCEPT_MESSAGES = { shaMismatch: 'The merge-head is not at the anticipated SHA', notMergeable: 'This branch cannot be merged' } as const;

/** The merge service's refusals (the REST API's 409 and 405) in GitLab's mutation messages. */
function acceptError(error: unknown): unknown {
  if (error instanceof ConflictError) return new UnprocessableError(ACCEPT_MESSAGES.shaMismatch);
  if (error instanceof MethodNotAllowedError) return new UnprocessableError(ACCEPT_MESSAGES.notMergeable);
  return error;
}

export const nodeOf = (opened: OpenedMergeRequest): MergeRequestNode => ({ mergeRequest: opened.mergeRequest, project: opened.project });
export const echo = (input: { clientMutationId?: string | null }) => ({ clientMutationId: input.clientMutationId ?? null });

export function createMutationResolvers(deps: EditorDeps) {
  async function noteRef(actor: Actor, id: ParsedGlobalId): Promise<{ ref: MergeRequestRef; noteId: number }> {
    const noteId = recordId(id);
    const ref = noteId === null ? null : await deps.locator.note(actor, noteId);
    if (!ref || noteId === null) throw resourceNotAvailable();
    return { ref, noteId };
  }

  async function noteableRef(actor: Actor, id: ParsedGlobalId): Promise<MergeRequestRef> {
    const mergeRequestId = id.type === 'MergeRequest' ? recordId(id) : null;
    const ref = mergeRequestId === null ? null : await deps.locator.mergeRequest(actor, mergeRequestId);
    if (!ref) throw resourceNotAvailable();
    return ref;
  }

  async function userIds(usernames: readonly string[]): Promise<number[]> {
    // GitLab looks the names up and leaves out the ones that name no user.
    const found = await Promise.all([...new Set(usernames)].map((username) => deps.users.findByUsername(username)));
    return found.filter((user): user is User => user !== undefined).map((user) => user.id);
  }

  function setUsers(kind: 'assignees' | 'reviewers'): Mutation<MergeRequestInput & { assigneeUsernames?: string[]; reviewerUsernames?: string[]; operationMode?: OperationMode }> {
    return async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const iid = iidOf(input.iid);
      return {
        ...echo(input),
        ...(await mutation(async () => {
          const node = await ctx.scope.project(input.projectPath).then((project) => (project ? ctx.scope.mergeRequest(project, iid) : null));
          if (!node) throw resourceNotAvailable();
          const current = ((await deps.mergeRequestUsers[kind]([node.mergeRequest.id])).get(node.mergeRequest.id) ?? []).map((user) => user.id);
          const named = await userIds((kind === 'assignees' ? input.assigneeUsernames : input.reviewerUsernames) ?? []);
          const ids = applyOperationMode(current, named, input.operationMode ?? 'REPLACE');
          const opened = await deps.mergeRequests.update(actor, node.project.id, iid, kind === 'assignees' ? { assigneeIds: ids } : { reviewerIds: ids });
          return { mergeRequest: nodeOf(opened) };
        })),
      };
    };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL arguments differ per field; each resolver types its own
  const Mutation: Record<string, Mutation<any>> = {
    createNote: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const ref = await noteableRef(actor, input.noteableId);
      return {
        ...echo(input),
        ...(await mutation(async () => {
          const discussionId = input.discussionId?.id;
          const view = discussionId
            ? await deps.discussions.reply(ref, discussionId, input.body)
            : await deps.notes.create(ref, { body: input.body, internal: input.internal === true });
          return { note: { note: view.notes[0]!, scope: view.scope } satisfies NoteNode };
        })),
      };
    }) satisfies Mutation<{ noteableId: ParsedGlobalId; body: string; discussionId?: ParsedGlobalId | null; internal?: boolean | null }>,

    createDiffNote: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const ref = await noteableRef(actor, input.noteableId);
      return {
        ...echo(input),
        ...(await mutation(async () => {
          const { position: p } = input;
          // The REST API's position rules, fed GitLab's GraphQL input under their REST names.
          const position = parsePosition({
            position_type: 'text',
            base_sha: p.baseSha,
            start_sha: p.startSha,
            head_sha: p.headSha,
            old_path: p.paths.oldPath,
            new_path: p.paths.newPath,
            old_line: p.oldLine,
            new_line: p.newLine,
          });
          const view = await deps.discussions.create(ref, { body: input.body, internal: input.internal === true, position });
          const discussion = view.discussions[0]!;
          return { note: { note: discussion.notes[0]!, scope: view.scope, discussion } satisfies NoteNode };
        })),
      };
    }) satisfies Mutation<{
      noteableId: ParsedGlobalId;
      body: string;
      internal?: boolean | null;
      position: { baseSha?: string | null; headSha: string; startSha: string; paths: { oldPath?: string | null; newPath?: string | null }; oldLine?: number | null; newLine?: number | null };
    }>,

    updateNote: (async (_, { input }, ctx) => {
      const { ref, noteId } = await noteRef(writer(ctx), input.id);
      return {
        ...echo(input),
        ...(await mutation(async () => {
          // GitLab leaves the body alone when none is sent; the call still checks the right to edit.
          const view = input.body == null ? await deps.notes.get(ref, noteId) : await deps.notes.update(ref, noteId, { body: input.body });
          return { note: { note: view.notes[0]!, scope: view.scope } satisfies NoteNode };
        })),
      };
    }) satisfies Mutation<{ id: ParsedGlobalId; body?: string | null }>,

    destroyNote: (async (_, { input }, ctx) => {
      const { ref, noteId } = await noteRef(writer(ctx), input.id);
      return {
        ...echo(input),
        ...(await mutation(async () => {
          await deps.notes.remove(ref, noteId);
          return { note: null };
        })),
      };
    }) satisfies Mutation<{ id: ParsedGlobalId }>,

    discussionToggleResolve: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const ref = await deps.locator.discussion(actor, input.id.id);
      if (!ref) throw resourceNotAvailable();
      return {
        ...echo(input),
        ...(await mutation(async () => {
          const view = await deps.discussions.resolve(ref, input.id.id, input.resolve);
          return { discussion: { discussion: view.discussions[0]!, scope: view.scope } satisfies DiscussionNode };
        })),
      };
    }) satisfies Mutation<{ id: ParsedGlobalId; resolve: boolean }>,

    awardEmojiToggle: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const target = input.awardableId;
      const onMergeRequest = target.type === 'MergeRequest';
      const id = recordId(target);
      const ref = id === null ? null : onMergeRequest ? await deps.locator.mergeRequest(actor, id) : await deps.locator.note(actor, id);
      if (!ref || id === null) throw resourceNotAvailable();
      const result = await mutation(async () => {
        const { awarded, toggledOn } = await deps.awardEmoji.toggle(ref, onMergeRequest ? null : id, input.name);
        const award = awarded?.awards[0];
        return { toggledOn, awardEmoji: award ? { name: award.name, description: null, emoji: emojiCharacter(award.name), unicode: null, user: awarded.users.get(award.user_id) ?? null } : null };
      });
      return { ...echo(input), toggledOn: false, awardEmoji: null, ...result };
    }) satisfies Mutation<{ awardableId: ParsedGlobalId; name: string }>,

    mergeRequestSetDraft: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const iid = iidOf(input.iid);
      return { ...echo(input), ...(await mutation(async () => ({ mergeRequest: nodeOf(await deps.mergeRequests.update(actor, input.projectPath, iid, { draft: input.draft })) }))) };
    }) satisfies Mutation<MergeRequestInput & { draft: boolean }>,

    mergeRequestAccept: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const iid = iidOf(input.iid);
      const result = await mutation(async () => {
        try {
          const options = {
            sha: input.sha.toLowerCase(),
            mergeCommitMessage: input.commitMessage ?? undefined,
            squashCommitMessage: input.squashCommitMessage ?? undefined,
            squash: input.squash ?? undefined,
            shouldRemoveSourceBranch: input.shouldRemoveSourceBranch ?? undefined,
          };
          // With a strategy (GitLab's enum, upper case) auto-merge is set with it; without one, a merge now.
          const merged = input.strategy
            ? await deps.autoMerge.mergeOrSet(actor, input.projectPath, iid, { ...options, strategy: input.strategy.toLowerCase() })
            : await deps.merging.merge(actor, input.projectPath, iid, options);
          return { mergeRequest: nodeOf(merged) };
        } catch (error) {
          throw acceptError(error);
        }
      });
      // GitLab answers a refused merge with the merge request as it stands beside the errors.
      if (result.errors.length > 0) {
        const project = await ctx.scope.project(input.projectPath);
        return { ...echo(input), ...result, mergeRequest: project ? await ctx.scope.mergeRequest(project, iid) : null };
      }
      return { ...echo(input), ...result };
    }) satisfies Mutation<MergeRequestInput & { sha: string; commitMessage?: string | null; squashCommitMessage?: string | null; squash?: boolean | null; shouldRemoveSourceBranch?: boolean | null; strategy?: string | null }>,

    mergeRequestSetAssignees: setUsers('assignees'),
    mergeRequestSetReviewers: setUsers('reviewers'),
  };

  return { Mutation };
}
