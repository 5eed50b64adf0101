/**
 * Draft notes of a review (doc/api/draft_notes.md): comments only their author sees until they
 * are published, one at a time or all at once. GitLab looks drafts up with
 * `merge_request.draft_notes.authored_by(current_user)`, so anyone else, administrators
 * included, gets a 404.
 */
import { canCreateNote } from '../../auth/permissions.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { User } from '../users/user.js';
import type { MergeRequestRef, NoteAccess, NoteScope } from './note-access.js';
import { isResolvable, MAX_NOTE_LENGTH, type DraftNote } from './note.js';
import { noteBodyError } from './note-rules.js';
import type { NoteWriter } from './note-writer.js';
import type { NotesRepository } from './notes.repository.js';
import { signedInUser } from './notes.service.js';
import type { DraftNotesRepository } from './draft-notes.repository.js';
import type { NotePosition } from './position.js';
import type { PositionValidator } from './position-validator.js';

export interface NewDraftInput {
  note: string;
  inReplyToDiscussionId?: string;
  commitId?: string;
  resolveDiscussion: boolean;
  internal: boolean;
  position?: NotePosition;
}

/** DraftNotes::CreateService's refusal when the thread is gone or hidden (`render_validation_error!`). */
const threadNotFound = () => new ValidationError({ base: ['Thread to reply to cannot be found'] });

function draftBodyError(note: string): ValidationError | null {
  if (note.trim() === '') return ValidationError.field('note', "can't be blank");
  if (note.length > MAX_NOTE_LENGTH) return ValidationError.field('note', `is too long (maximum is ${MAX_NOTE_LENGTH} characters)`);
  return null;
}

export function createDraftNotesService(deps: {
  db: Pick<Database, 'transaction'>;
  access: NoteAccess;
  drafts: DraftNotesRepository;
  notes: Pick<NotesRepository, 'setResolved' | 'notesOfDiscussions'>;
  writer: NoteWriter;
  positions: PositionValidator;
}) {
  const { access, drafts } = deps;

  async function own(ref: MergeRequestRef): Promise<{ scope: NoteScope; user: User }> {
    const scope = await access.open(...ref);
    return { scope, user: signedInUser(scope) };
  }

  async function find(scope: NoteScope, user: User, id: number): Promise<DraftNote> {
    const draft = Number.isSafeInteger(id) ? await drafts.find(scope.noteable.mergeRequestId, user.id, id) : undefined;
    if (!draft) throw new NotFoundError('Draft Note');
    return draft;
  }

  const mayComment = (scope: NoteScope, internal: boolean) =>
    canCreateNote(scope.abilities, { discussionLocked: scope.mergeRequest.discussion_locked === true, internal });

  /**
   * Checks drafts before publishing: the right to comment (the lock may have come since) and,
   * for replies, that the thread is still there and open to the caller. Reads happen here,
   * outside the transaction (PGlite runs one connection: a read beside an open transaction
   * would wait for it).
   */
  async function prepare(scope: NoteScope, list: DraftNote[]): Promise<Array<{ draft: DraftNote; canResolve: boolean }>> {
    // Every thread replied to, in one query: a thread that is gone or hidden is absent.
    const firstNotes = await access.firstNotes(
      scope,
      list.flatMap((draft) => (draft.discussion_id === null ? [] : [draft.discussion_id])),
    );
    const plans: Array<{ draft: DraftNote; canResolve: boolean }> = [];
    for (const draft of list) {
      if (!mayComment(scope, draft.internal)) throw new ForbiddenError();
      if (draft.discussion_id === null) {
        plans.push({ draft, canResolve: false });
        continue;
      }
      const first = firstNotes.get(draft.discussion_id);
      if (!first || !access.abilities(scope, first).has('reply_to_note')) throw threadNotFound();
      // a reply turns an individual note into a thread, which its resolvers may then resolve
      const thread = { ...first, type: first.type ?? 'DiscussionNote' };
      plans.push({ draft, canResolve: isResolvable(thread) && access.abilities(scope, thread).has('resolve_note') });
    }
    return plans;
  }

  /** Publishes prepared drafts in one transaction: replies go to their threads, the rest start threads. */
  async function publish(scope: NoteScope, user: User, plans: Array<{ draft: DraftNote; canResolve: boolean }>, tx: Queryable): Promise<void> {
    for (const { draft, canResolve } of plans) {
      if (draft.discussion_id === null) {
        await deps.writer.start(
          scope,
          user.id,
          { body: draft.note, type: draft.position ? 'DiffNote' : 'DiscussionNote', internal: draft.internal, position: draft.position, lineCode: draft.line_code, commitId: draft.commit_id },
          tx,
        );
        continue;
      }
      if ((await deps.writer.reply(scope, user.id, draft.discussion_id, draft.note, tx)) === null) throw threadNotFound();
      if (draft.resolve_discussion && canResolve) {
        const notes = await deps.notes.notesOfDiscussions(scope.noteable.mergeRequestId, [draft.discussion_id], tx);
        await deps.notes.setResolved(
          scope.noteable.mergeRequestId,
          notes.map((note) => note.id),
          user.id,
          tx,
        );
      }
    }
    await drafts.remove(
      scope.noteable.mergeRequestId,
      user.id,
      plans.map((plan) => plan.draft.id),
      tx,
    );
  }

  return {
    async list(ref: MergeRequestRef): Promise<DraftNote[]> {
      const { scope, user } = await own(ref);
      return drafts.list(scope.noteable.mergeRequestId, user.id);
    },

    async get(ref: MergeRequestRef, id: number): Promise<DraftNote> {
      const { scope, user } = await own(ref);
      return find(scope, user, id);
    },

    async create(ref: MergeRequestRef, input: NewDraftInput): Promise<DraftNote> {
      const { scope, user } = await own(ref);
      let internal = input.internal;
      let discussionId: string | null = null;
      if (input.inReplyToDiscussionId !== undefined && input.inReplyToDiscussionId !== '') {
        // Only "not there or not yours to see" is a missing thread; a database failure is not.
        const discussion = await access.discussion(scope, input.inReplyToDiscussionId).catch((error: unknown) => {
          if (error instanceof NotFoundError) return null;
          throw error;
        });
        if (!discussion) throw threadNotFound();
        discussionId = discussion.id;
        internal = discussion.notes[0]!.internal;
      }
      if (!mayComment(scope, internal)) throw new ForbiddenError();
      const bodyError = draftBodyError(input.note);
      if (bodyError) throw bodyError;
      // A reply takes its thread's place in the diff; only a new thread has a position of its own.
      const valid = input.position && discussionId === null ? await deps.positions.validate(scope.mergeRequest, input.position) : null;
      const id = await drafts.insert({
        mergeRequestId: scope.noteable.mergeRequestId,
        authorId: user.id,
        note: input.note,
        discussionId,
        resolveDiscussion: discussionId !== null && input.resolveDiscussion,
        internal,
        commitId: input.commitId ?? null,
        lineCode: valid?.lineCode ?? null,
        position: valid?.position ?? null,
      });
      return find(scope, user, id);
    },

    /** GitLab: `note` is required to modify a draft; a position moves it. */
    async update(ref: MergeRequestRef, id: number, input: { note?: string; position?: NotePosition }): Promise<DraftNote> {
      const { scope, user } = await own(ref);
      if (input.note === undefined || input.note.trim() === '') throw new ValidationError('400 Bad request - Missing params to modify');
      const draft = await find(scope, user, id);
      const bodyError = draftBodyError(input.note);
      if (bodyError) throw bodyError;
      const valid = input.position && draft.discussion_id === null ? await deps.positions.validate(scope.mergeRequest, input.position) : null;
      await drafts.update(scope.noteable.mergeRequestId, user.id, draft.id, { note: input.note, position: valid?.position ?? null, lineCode: valid?.lineCode ?? null });
      return find(scope, user, id);
    },

    async remove(ref: MergeRequestRef, id: number): Promise<void> {
      const { scope, user } = await own(ref);
      const draft = await find(scope, user, id);
      await drafts.remove(scope.noteable.mergeRequestId, user.id, [draft.id]);
    },

    async publish(ref: MergeRequestRef, id: number): Promise<void> {
      const { scope, user } = await own(ref);
      const plans = await prepare(scope, [await find(scope, user, id)]);
      await deps.db.transaction((tx) => publish(scope, user, plans, tx));
    },

    /**
     * Every draft of the caller on this merge request, at once: all are published or none. The
     * review's summary, when given, is a plain comment after them, not a thread to resolve
     * (GitLab's DraftNotes::PublishService with a `note`).
     */
    async publishAll(ref: MergeRequestRef, summary?: string): Promise<void> {
      const { scope, user } = await own(ref);
      const body = summary?.trim() ? summary : undefined;
      if (body !== undefined) {
        const invalid = noteBodyError(body);
        if (invalid) throw invalid;
        if (!mayComment(scope, false)) throw new ForbiddenError();
      }
      const plans = await prepare(scope, await drafts.list(scope.noteable.mergeRequestId, user.id));
      await deps.db.transaction(async (tx) => {
        await publish(scope, user, plans, tx);
        if (body !== undefined) await deps.writer.start(scope, user.id, { body, type: null, internal: false }, tx);
      });
    },
  };
}

export type DraftNotesService = ReturnType<typeof createDraftNotesService>;
