/**
 * From a note, discussion or merge request named by id alone (GraphQL's global ids) to the
 * merge request reference every notes service takes. It decides nothing about access: the
 * service then opens the merge request through NoteAccess, which answers 404 for what the
 * caller may not see, exactly as for a REST route that names the project and iid.
 */
import type { Actor } from '../../auth/actor.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import type { MergeRequestRef } from './note-access.js';
import type { NotesRepository } from './notes.repository.js';

const DISCUSSION_ID = /^[0-9a-f]{40}$/;

export function createNoteLocator(deps: { notes: Pick<NotesRepository, 'mergeRequestOfNote' | 'mergeRequestOfDiscussion'>; mergeRequests: Pick<MergeRequestsRepository, 'findById'> }) {
  async function refOf(actor: Actor, mergeRequestId: number | undefined): Promise<MergeRequestRef | null> {
    const mergeRequest = mergeRequestId === undefined ? undefined : await deps.mergeRequests.findById(mergeRequestId);
    return mergeRequest ? [actor, mergeRequest.target_project_id, mergeRequest.iid] : null;
  }

  return {
    mergeRequest: (actor: Actor, mergeRequestId: number) => refOf(actor, mergeRequestId),
    async note(actor: Actor, noteId: number): Promise<MergeRequestRef | null> {
      return refOf(actor, Number.isSafeInteger(noteId) ? await deps.notes.mergeRequestOfNote(noteId) : undefined);
    },
    async discussion(actor: Actor, discussionId: string): Promise<MergeRequestRef | null> {
      return refOf(actor, DISCUSSION_ID.test(discussionId) ? await deps.notes.mergeRequestOfDiscussion(discussionId) : undefined);
    },
  };
}

export type NoteLocator = ReturnType<typeof createNoteLocator>;
