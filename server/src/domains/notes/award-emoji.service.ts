/**
 * Award emoji on a merge request and on its notes (doc/api/emoji_reactions.md), with GitLab's
 * answers: refusals to award are 404 `Award Emoji … Not Found` (API::AwardEmoji uses not_found!
 * for every failed award, a duplicate included), removing someone else's award is 401.
 */
import { canAwardMergeRequest } from '../../auth/permissions.js';
import { NotFoundError, UnauthorizedError } from '../../platform/errors.js';
import type { User } from '../users/user.js';
import type { AwardEmojiRepository, Awardable } from './award-emoji.repository.js';
import { normalizeEmojiName } from './emoji.js';
import type { MergeRequestRef, NoteAccess, NoteScope } from './note-access.js';
import type { AwardEmoji } from './note.js';
import type { NotesRepository } from './notes.repository.js';

export interface AwardsView {
  scope: NoteScope;
  awards: AwardEmoji[];
  users: Map<number, User>;
}

/** GitLab's wording: `not_found!("Award Emoji #{message}")`. */
const refused = (message: string) => new NotFoundError(`Award Emoji ${message}`);

export function createAwardEmojiService(deps: { access: NoteAccess; awards: AwardEmojiRepository; notes: Pick<NotesRepository, 'usersByIds'> }) {
  const { access, awards } = deps;

  /** The awardable the route names, read-checked: the merge request, or a note the caller may read. */
  async function target(ref: MergeRequestRef, noteId: number | null) {
    const scope = await access.open(...ref);
    if (noteId === null) {
      const mayAward = canAwardMergeRequest(scope.abilities, scope.mergeRequest.discussion_locked === true);
      return { scope, awardable: { mergeRequestId: scope.noteable.mergeRequestId, noteId: null } satisfies Awardable, mayAward, system: false };
    }
    const { note, abilities } = await access.note(scope, noteId);
    return { scope, awardable: { mergeRequestId: scope.noteable.mergeRequestId, noteId: note.id } satisfies Awardable, mayAward: abilities.has('award_emoji'), system: note.system };
  }

  async function view(scope: NoteScope, list: AwardEmoji[]): Promise<AwardsView> {
    return { scope, awards: list, users: await deps.notes.usersByIds(list.map((award) => award.user_id)) };
  }

  async function findAward(awardable: Awardable, awardId: number): Promise<AwardEmoji> {
    const award = Number.isSafeInteger(awardId) ? await awards.find(awardable, awardId) : undefined;
    if (!award) throw new NotFoundError('Award Emoji');
    return award;
  }

  async function award(ref: MergeRequestRef, noteId: number | null, name: string): Promise<AwardsView> {
    const { scope, awardable, mayAward, system } = await target(ref, noteId);
    const user = scope.actor.user;
    if (!user) throw new UnauthorizedError();
    if (!mayAward) throw new NotFoundError('Award Emoji');
    if (system) throw refused('Awardable cannot be awarded emoji');
    const canonical = normalizeEmojiName(name);
    if (canonical === null) throw refused('Name is not a valid emoji name');
    const id = await awards.insert(awardable, user.id, canonical);
    if (id === null) throw refused('Name has already been taken');
    return view(scope, [await findAward(awardable, id)]);
  }

  return {
    async list(ref: MergeRequestRef, noteId: number | null, page: { limit: number; offset: number }): Promise<AwardsView & { total: number }> {
      const { scope, awardable } = await target(ref, noteId);
      const result = await awards.list(awardable, page);
      return { ...(await view(scope, result.awards)), total: result.total };
    },

    /** The awards on all the notes of the merge request that the caller may read (see the repository). */
    async listOfNotes(ref: MergeRequestRef, page: { limit: number; offset: number }): Promise<AwardsView & { total: number }> {
      const scope = await access.open(...ref);
      const result = await awards.listOfNotes(scope.noteable.mergeRequestId, { includeInternal: scope.canReadInternal, ...page });
      return { ...(await view(scope, result.awards)), total: result.total };
    },

    async get(ref: MergeRequestRef, noteId: number | null, awardId: number): Promise<AwardsView> {
      const { scope, awardable } = await target(ref, noteId);
      return view(scope, [await findAward(awardable, awardId)]);
    },

    award,

    /**
     * GitLab's awardEmojiToggle (GraphQL): removes the caller's award of this name when there is
     * one, else awards it, under the same rules as award() and remove(). `awarded` is null when
     * the toggle removed it.
     */
    async toggle(ref: MergeRequestRef, noteId: number | null, name: string): Promise<{ awarded: AwardsView | null; toggledOn: boolean }> {
      const { scope, awardable } = await target(ref, noteId);
      const user = scope.actor.user;
      if (!user) throw new UnauthorizedError();
      const canonical = normalizeEmojiName(name);
      const own = canonical === null ? undefined : await awards.findOwn(awardable, user.id, canonical);
      if (own) {
        await awards.remove(awardable, own.id);
        return { awarded: null, toggledOn: false };
      }
      return { awarded: await award(ref, noteId, name), toggledOn: true };
    },

    /** Only the user who awarded it (or an administrator) removes an award. */
    async remove(ref: MergeRequestRef, noteId: number | null, awardId: number): Promise<void> {
      const { awardable, scope } = await target(ref, noteId);
      const user = scope.actor.user;
      if (!user) throw new UnauthorizedError();
      const found = await findAward(awardable, awardId);
      if (found.user_id !== user.id && !user.is_admin) throw new UnauthorizedError();
      await awards.remove(awardable, found.id);
    },
  };
}

export type AwardEmojiService = ReturnType<typeof createAwardEmojiService>;
