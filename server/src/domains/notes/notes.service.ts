/**
 * Notes of a merge request (doc/api/notes.md): list, read, comment, edit, delete, and resolve
 * one thread note. Threads as a whole are in discussions.service.ts. Every call opens the
 * merge request through NoteAccess first (404 for what the caller may not see).
 */
import { ForbiddenError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import type { Database } from '../../platform/db/database.js';
import { canCreateNote, type NoteAction } from '../../auth/permissions.js';
import type { User } from '../users/user.js';
import type { MergeRequestRef, NoteAccess, NoteScope } from './note-access.js';
import { isResolvable, type Note } from './note.js';
import { noteBodyError, staleEditError } from './note-rules.js';
import type { NoteWriter, SuggestionRecorder } from './note-writer.js';
import type { NoteOrder, NotesRepository } from './notes.repository.js';
import type { SuggestionView } from '../suggestions/suggestions.service.js';

/** Notes with the users they name (authors, resolvers), ready for the entities. */
export interface NotesView {
  scope: NoteScope;
  notes: Note[];
  users: Map<number, User>;
  /** suggested changes of diff notes, by note id (domains/suggestions/) */
  suggestions?: Map<number, SuggestionView[]>;
  /** what the reader may do to each note (auth/permissions.ts noteAbilities, the one rule) */
  abilities: (note: Note) => Set<NoteAction>;
}

/** The suggestions of diff notes, read with them and written with them; the composition root passes domains/suggestions/ in. */
export interface NoteSuggestions extends SuggestionRecorder {
  forNotes(scope: NoteScope, notes: readonly Note[]): Promise<Map<number, SuggestionView[]>>;
}

export function signedInUser(scope: NoteScope): User {
  if (!scope.actor.user) throw new UnauthorizedError();
  return scope.actor.user;
}

export function assertBody(body: string): void {
  const error = noteBodyError(body);
  if (error) throw error;
}

export function createNotesService(deps: {
  db: Pick<Database, 'transaction'>;
  access: NoteAccess;
  notes: NotesRepository;
  writer: NoteWriter;
  suggestions?: NoteSuggestions;
}) {
  const { access, notes } = deps;

  async function view(scope: NoteScope, list: Note[]): Promise<NotesView> {
    const [users, suggestions] = await Promise.all([notes.usersByIds(list.flatMap((note) => [note.author_id, note.resolved_by_id, note.updated_by_id])), deps.suggestions?.forNotes(scope, list)]);
    return { scope, notes: list, users, suggestions, abilities: (note) => access.abilities(scope, note) };
  }

  async function reload(scope: NoteScope, noteId: number): Promise<NotesView> {
    return view(scope, [(await access.note(scope, noteId)).note]);
  }

  /** Routes under /discussions/:discussion_id/notes/:note_id name the discussion as well. */
  type Where = { discussionId?: string };

  return {
    view,

    async list(ref: MergeRequestRef, order: NoteOrder, page: { limit: number; offset: number }): Promise<NotesView & { total: number }> {
      const scope = await access.open(...ref);
      const result = await notes.listNotes(scope.noteable.mergeRequestId, { ...order, ...page, includeInternal: scope.canReadInternal });
      return { ...(await view(scope, result.notes)), total: result.total };
    },

    async get(ref: MergeRequestRef, noteId: number, where: Where = {}): Promise<NotesView> {
      const scope = await access.open(...ref);
      return view(scope, [(await access.note(scope, noteId, where.discussionId)).note]);
    },

    /** A plain comment (an individual note; replying to it later makes it a thread). */
    async create(ref: MergeRequestRef, input: { body: string; internal: boolean }): Promise<NotesView> {
      const scope = await access.open(...ref);
      const user = signedInUser(scope);
      if (!canCreateNote(scope.abilities, { discussionLocked: scope.mergeRequest.discussion_locked === true, internal: input.internal })) throw new ForbiddenError();
      assertBody(input.body);
      const { noteId } = await deps.db.transaction((tx) => deps.writer.start(scope, user.id, { body: input.body, type: null, internal: input.internal }, tx));
      return reload(scope, noteId);
    },

    /**
     * A new body. `lockVersion` (ours; GitLab tools do not send it) is the version the editor
     * started from: when the note changed since, nothing is written and the answer is 409.
     */
    async update(ref: MergeRequestRef, noteId: number, input: { body: string; lockVersion?: number }, where: Where = {}): Promise<NotesView> {
      const scope = await access.open(...ref);
      const user = signedInUser(scope);
      const { abilities } = await access.note(scope, noteId, where.discussionId);
      if (!abilities.has('update_note')) throw new ForbiddenError();
      assertBody(input.body);
      await deps.db.transaction(async (tx) => {
        const locked = await notes.lockNote(scope.noteable.mergeRequestId, noteId, tx);
        if (!locked) return;
        const stale = staleEditError(locked.lock_version, input.lockVersion);
        if (stale) throw stale;
        await notes.updateBody(noteId, input.body, user.id, tx);
        // GitLab's Notes::UpdateService: an edited diff note's suggestions are those of its new body
        await deps.suggestions?.record(scope.noteable.projectId, { ...locked, body: input.body }, tx);
      });
      return reload(scope, noteId);
    },

    async remove(ref: MergeRequestRef, noteId: number, where: Where = {}): Promise<void> {
      const scope = await access.open(...ref);
      signedInUser(scope);
      const { note, abilities } = await access.note(scope, noteId, where.discussionId);
      if (!abilities.has('delete_note')) throw new ForbiddenError();
      await deps.db.transaction(async (tx) => {
        await notes.deleteNote(scope.noteable.mergeRequestId, noteId, tx);
        if (isResolvable(note)) await deps.writer.announce(scope, tx);
      });
    },

    /** Resolves or unresolves one thread note (PUT …/discussions/:id/notes/:note_id with `resolved`). */
    async resolve(ref: MergeRequestRef, noteId: number, resolved: boolean, where: Where = {}): Promise<NotesView> {
      const scope = await access.open(...ref);
      const user = signedInUser(scope);
      const { note, abilities } = await access.note(scope, noteId, where.discussionId);
      if (!isResolvable(note)) {
        // GitLab checks the right first, then whether the note can be resolved at all.
        if (access.abilities(scope, { ...note, type: 'DiscussionNote' }).has('resolve_note')) throw new ValidationError('400 Bad request - Note is not resolvable');
        throw new ForbiddenError();
      }
      if (!abilities.has('resolve_note')) throw new ForbiddenError();
      await deps.db.transaction(async (tx) => {
        await notes.setResolved(scope.noteable.mergeRequestId, [noteId], resolved ? user.id : null, tx);
        await deps.writer.announce(scope, tx);
      });
      return reload(scope, noteId);
    },
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
