/**
 * Writing notes: starting a discussion and replying to one, shared by comments, threads, diff
 * comments and published drafts. Permission checks are the callers'; this keeps the data
 * rules (ids, inherited fields, individual notes turning into threads, a diff note's suggestion
 * rows written with it) in one place.
 */
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import { ValidationError } from '../../platform/errors.js';
import type { NoteScope } from './note-access.js';
import { isResolvable, type Note, type NoteType } from './note.js';
import { threadState } from './note-rules.js';
import type { NotesRepository } from './notes.repository.js';
import type { NotePosition } from './position.js';

/** GitLab's discussion ids: 40 hex characters. */
export function newDiscussionId(): string {
  return randomBytes(20).toString('hex');
}

export interface StartInput {
  body: string;
  type: NoteType;
  internal: boolean;
  position?: NotePosition | null;
  lineCode?: string | null;
  commitId?: string | null;
}

/** Writes a diff note's suggestion rows with the note (domains/suggestions/; the composition root passes it in). */
export interface SuggestionRecorder {
  record(projectId: number, note: Pick<Note, 'id' | 'type' | 'system' | 'position' | 'body'>, tx: Queryable): Promise<void>;
}

export function createNoteWriter(deps: {
  notes: Pick<NotesRepository, 'insertDiscussion' | 'insertNote' | 'lockDiscussion' | 'notesOfDiscussions' | 'convertToThread'>;
  events?: Pick<EventBus, 'publish'>;
  suggestions?: SuggestionRecorder;
}) {
  /** Threads decide DISCUSSIONS_NOT_RESOLVED: the merge widget hears about every change to one. */
  async function announce(scope: NoteScope, tx: Queryable): Promise<void> {
    await deps.events?.publish('merge_request.changed', { mergeRequestId: scope.noteable.mergeRequestId, projectId: scope.noteable.projectId }, tx);
  }

  return {
    announce,

    /** A new discussion with its first note; returns the note id. */
    async start(scope: NoteScope, authorId: number, input: StartInput, tx: Queryable): Promise<{ noteId: number; discussionId: string }> {
      const discussionId = newDiscussionId();
      const { projectId, mergeRequestId } = scope.noteable;
      await deps.notes.insertDiscussion({ id: discussionId, projectId, mergeRequestId, internal: input.internal }, tx);
      const noteId = await deps.notes.insertNote(
        { projectId, mergeRequestId, discussionId, type: input.type, authorId, body: input.body, position: input.position, lineCode: input.lineCode, commitId: input.commitId },
        tx,
      );
      await deps.suggestions?.record(projectId, { id: noteId, type: input.type, system: false, position: input.position ?? null, body: input.body }, tx);
      if (isResolvable({ type: input.type, system: false })) await announce(scope, tx);
      return { noteId, discussionId };
    },

    /**
     * A reply. An individual note becomes a thread first (GitLab lets you reply to a plain
     * comment on merge requests); system notes take no replies. The reply inherits the
     * thread's type, position and internal flag, and is born resolved in a resolved thread.
     * Returns null when the discussion is not there (deleted meanwhile).
     */
    async reply(scope: NoteScope, authorId: number, discussionId: string, body: string, tx: Queryable): Promise<number | null> {
      const { projectId, mergeRequestId } = scope.noteable;
      const discussion = await deps.notes.lockDiscussion(mergeRequestId, discussionId, tx);
      if (!discussion) return null;
      const notes = await deps.notes.notesOfDiscussions(mergeRequestId, [discussionId], tx);
      const first = notes[0];
      if (!first) return null;
      if (first.system) throw new ValidationError('400 Bad request - Discussion is an individual note.');
      if (first.type === null) await deps.notes.convertToThread(discussionId, tx);
      const state = threadState(notes.map((note) => (note.type === null ? { ...note, type: 'DiscussionNote' as const } : note)));
      const noteId = await deps.notes.insertNote(
        {
          projectId,
          mergeRequestId,
          discussionId,
          type: first.type ?? 'DiscussionNote',
          authorId,
          body,
          position: first.position,
          originalPosition: first.original_position,
          lineCode: first.line_code,
          commitId: first.commit_id,
          resolvedById: state.resolved ? authorId : null,
        },
        tx,
      );
      await deps.suggestions?.record(projectId, { id: noteId, type: first.type ?? 'DiscussionNote', system: false, position: first.position, body }, tx);
      await announce(scope, tx);
      return noteId;
    },
  };
}

export type NoteWriter = ReturnType<typeof createNoteWriter>;
