/**
 * Threads of a merge request (doc/api/discussions.md): list (offset pages, or keyset pages
 * that stay fast on a merge request with thousands of threads), read, start one (on a diff
 * line, a range, an image or a file when a position is given), reply, and resolve.
 */
import { canCreateNote } from '../../auth/permissions.js';
import type { Database } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError } from '../../platform/errors.js';
import type { User } from '../users/user.js';
import type { MergeRequestRef, NoteAccess, NoteScope } from './note-access.js';
import { isResolvable, type Discussion } from './note.js';
import { encodeCursor, type DiscussionCursor } from './note-rules.js';
import type { NoteWriter } from './note-writer.js';
import { assertBody, signedInUser, type NoteSuggestions, type NotesService, type NotesView } from './notes.service.js';
import type { DiscussionPageRow, NotesRepository } from './notes.repository.js';
import type { NotePosition } from './position.js';
import type { PositionValidator } from './position-validator.js';

export interface DiscussionsView {
  scope: NoteScope;
  discussions: Discussion[];
  users: Map<number, User>;
  /** suggested changes of diff notes, by note id (domains/suggestions/) */
  suggestions?: NotesView['suggestions'];
  abilities: NotesView['abilities'];
}

export type DiscussionPage = { kind: 'offset'; limit: number; offset: number } | { kind: 'keyset'; limit: number; after: DiscussionCursor | null };

export interface NewDiscussionInput {
  body: string;
  internal: boolean;
  position?: NotePosition;
  commitId?: string;
}

export function createDiscussionsService(deps: {
  db: Pick<Database, 'transaction'>;
  access: NoteAccess;
  notes: NotesRepository;
  writer: NoteWriter;
  positions: PositionValidator;
  notesService: Pick<NotesService, 'view'>;
  suggestions?: NoteSuggestions;
}) {
  const { access, notes } = deps;

  async function view(scope: NoteScope, rows: readonly Pick<DiscussionPageRow, 'id'>[]): Promise<DiscussionsView> {
    const all = await notes.notesOfDiscussions(
      scope.noteable.mergeRequestId,
      rows.map((row) => row.id),
    );
    const byDiscussion = new Map(rows.map((row) => [row.id, [] as typeof all]));
    for (const note of all) byDiscussion.get(note.discussion_id)?.push(note);
    const discussions = [...byDiscussion].filter(([, list]) => list.length > 0).map(([id, list]) => ({ id, notes: list }));
    const [users, suggestions] = await Promise.all([notes.usersByIds(all.flatMap((note) => [note.author_id, note.resolved_by_id, note.updated_by_id])), deps.suggestions?.forNotes(scope, all)]);
    return { scope, discussions, users, suggestions, abilities: (note) => access.abilities(scope, note) };
  }

  /** Who may resolve a thread: GitLab's Discussion#can_resolve? (a resolvable thread, and the right on its notes). */
  function assertCanResolve(scope: NoteScope, discussion: Discussion): void {
    const resolvable = discussion.notes.filter(isResolvable);
    if (resolvable.length === 0 || !access.abilities(scope, resolvable[0]!).has('resolve_note')) throw new ForbiddenError();
  }

  return {
    async list(ref: MergeRequestRef, page: DiscussionPage): Promise<DiscussionsView & { total?: number; next?: string }> {
      const scope = await access.open(...ref);
      const includeInternal = scope.canReadInternal;
      if (page.kind === 'offset') {
        const { rows, total } = await notes.discussionPage(scope.noteable.mergeRequestId, { includeInternal, limit: page.limit, offset: page.offset });
        return { ...(await view(scope, rows)), total };
      }
      // One row more than the page says whether another page follows, without counting.
      const rows = await notes.discussionsAfter(scope.noteable.mergeRequestId, { includeInternal, limit: page.limit + 1, after: page.after });
      const last = rows.length > page.limit ? rows[page.limit - 1] : undefined;
      const result = await view(scope, rows.slice(0, page.limit));
      return last ? { ...result, next: encodeCursor({ createdAt: last.created_at_text, seq: last.seq }) } : result;
    },

    async get(ref: MergeRequestRef, discussionId: string): Promise<DiscussionsView> {
      const scope = await access.open(...ref);
      const discussion = await access.discussion(scope, discussionId);
      return view(scope, [discussion]);
    },

    /** A new thread; with a position, a diff thread checked against the merge request's versions. */
    async create(ref: MergeRequestRef, input: NewDiscussionInput): Promise<DiscussionsView> {
      const scope = await access.open(...ref);
      const user = signedInUser(scope);
      if (!canCreateNote(scope.abilities, { discussionLocked: scope.mergeRequest.discussion_locked === true, internal: input.internal })) throw new ForbiddenError();
      assertBody(input.body);
      const valid = input.position ? await deps.positions.validate(scope.mergeRequest, input.position) : null;
      const { discussionId } = await deps.db.transaction((tx) =>
        deps.writer.start(
          scope,
          user.id,
          {
            body: input.body,
            type: valid ? 'DiffNote' : 'DiscussionNote',
            internal: input.internal,
            position: valid?.position ?? null,
            lineCode: valid?.lineCode ?? null,
            commitId: input.commitId ?? null,
          },
          tx,
        ),
      );
      return view(scope, [{ id: discussionId }]);
    },

    /** A reply; replying to a plain comment turns it into a thread (GitLab, merge requests). */
    async reply(ref: MergeRequestRef, discussionId: string, body: string): Promise<NotesView> {
      const scope = await access.open(...ref);
      const user = signedInUser(scope);
      const discussion = await access.discussion(scope, discussionId);
      if (!access.abilities(scope, discussion.notes[0]!).has('reply_to_note')) throw new ForbiddenError();
      assertBody(body);
      const noteId = await deps.db.transaction((tx) => deps.writer.reply(scope, user.id, discussion.id, body, tx));
      if (noteId === null) throw new NotFoundError('Discussion');
      return deps.notesService.view(scope, [(await access.note(scope, noteId)).note]);
    },

    /** Resolves or unresolves every note of a thread (PUT …/discussions/:id?resolved=). */
    async resolve(ref: MergeRequestRef, discussionId: string, resolved: boolean): Promise<DiscussionsView> {
      const scope = await access.open(...ref);
      const user = signedInUser(scope);
      const discussion = await access.discussion(scope, discussionId);
      assertCanResolve(scope, discussion);
      await deps.db.transaction(async (tx) => {
        await notes.setResolved(
          scope.noteable.mergeRequestId,
          discussion.notes.map((note) => note.id),
          resolved ? user.id : null,
          tx,
        );
        await deps.writer.announce(scope, tx);
      });
      return view(scope, [discussion]);
    },
  };
}

export type DiscussionsService = ReturnType<typeof createDiscussionsService>;
