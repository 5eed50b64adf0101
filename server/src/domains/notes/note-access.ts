/**
 * The way in to every note, discussion, draft and reaction: the project, then the merge
 * request (MergeRequestsService.open answers 404 for what the caller may not read), then the
 * record looked up *inside that merge request*, then the per-note rules of auth/permissions.ts.
 * A note of another merge request, or one the caller may not see (an internal note for a
 * Guest), is a 404 either way, so neither existence nor content leaks.
 */
import type { Actor } from '../../auth/actor.js';
import { noteAbilities, type NoteAction, type NoteSubject } from '../../auth/permissions.js';
import { NotFoundError } from '../../platform/errors.js';
import type { MergeRequestsService, OpenedMergeRequest } from '../merge-requests/merge-requests.service.js';
import { isResolvable, type Discussion, type Note, type Noteable } from './note.js';
import type { NotesRepository } from './notes.repository.js';

/** A merge request opened for its discussions, with what the caller may see there. */
export interface NoteScope extends OpenedMergeRequest {
  actor: Actor;
  noteable: Noteable;
  /** Reporter and above read internal notes; lists leave them out for everyone else */
  canReadInternal: boolean;
}

/** GitLab's discussion ids: 40 hex characters; anything else names no discussion. */
const DISCUSSION_ID = /^[0-9a-f]{40}$/;

export type MergeRequestRef = [actor: Actor, idOrPath: string | number, iid: number];

export function createNoteAccess(deps: { mergeRequests: Pick<MergeRequestsService, 'open'>; notes: Pick<NotesRepository, 'findNote' | 'findDiscussion' | 'notesOfDiscussions' | 'firstNotesOfDiscussions'> }) {
  function subject(scope: NoteScope, note: Pick<Note, 'author_id' | 'system' | 'internal' | 'type'>): NoteSubject {
    return {
      userId: scope.actor.user?.id ?? null,
      noteAuthorId: note.author_id,
      mergeRequestAuthorId: scope.mergeRequest.author_id,
      discussionLocked: scope.mergeRequest.discussion_locked === true,
      system: note.system,
      internal: note.internal,
      resolvable: isResolvable(note),
    };
  }

  const abilities = (scope: NoteScope, note: Pick<Note, 'author_id' | 'system' | 'internal' | 'type'>): Set<NoteAction> => noteAbilities(scope.abilities, subject(scope, note));

  return {
    abilities,

    async open(...[actor, idOrPath, iid]: MergeRequestRef): Promise<NoteScope> {
      const opened = await deps.mergeRequests.open(actor, idOrPath, iid);
      return {
        ...opened,
        actor,
        noteable: { projectId: opened.project.id, mergeRequestId: opened.mergeRequest.id, mergeRequestIid: opened.mergeRequest.iid, projectPath: opened.project.full_path },
        canReadInternal: opened.abilities.has('read_internal_note'),
      };
    },

    /**
     * A note of this merge request (and of this discussion, when the route names one) that the
     * caller may read, with what they may do to it.
     */
    async note(scope: NoteScope, noteId: number, discussionId?: string): Promise<{ note: Note; abilities: Set<NoteAction> }> {
      const found = Number.isSafeInteger(noteId) ? await deps.notes.findNote(scope.noteable.mergeRequestId, noteId) : undefined;
      const note = found && (discussionId === undefined || found.discussion_id === discussionId) ? found : undefined;
      const granted = note ? abilities(scope, note) : new Set<NoteAction>();
      if (!note || !granted.has('read_note')) throw new NotFoundError('Note');
      return { note, abilities: granted };
    },

    /** A discussion of this merge request that the caller may read, with its notes. */
    async discussion(scope: NoteScope, discussionId: string): Promise<Discussion> {
      const found = DISCUSSION_ID.test(discussionId) ? await deps.notes.findDiscussion(scope.noteable.mergeRequestId, discussionId) : undefined;
      if (!found || (found.internal && !scope.canReadInternal)) throw new NotFoundError('Discussion');
      const notes = await deps.notes.notesOfDiscussions(scope.noteable.mergeRequestId, [found.id]);
      if (notes.length === 0) throw new NotFoundError('Discussion');
      return { id: found.id, notes };
    },

    /**
     * The first note of each of these discussions that the caller may read, by discussion id,
     * in one query; a discussion that is gone or hidden is left out (what discussion() answers
     * with a 404).
     */
    async firstNotes(scope: NoteScope, discussionIds: readonly string[]): Promise<Map<string, Note>> {
      const wanted = [...new Set(discussionIds)].filter((id) => DISCUSSION_ID.test(id));
      const notes = await deps.notes.firstNotesOfDiscussions(scope.noteable.mergeRequestId, wanted);
      return new Map(notes.filter((note) => !note.internal || scope.canReadInternal).map((note) => [note.discussion_id, note]));
    },
  };
}

export type NoteAccess = ReturnType<typeof createNoteAccess>;
