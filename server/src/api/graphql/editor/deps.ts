import type { MergeRequestsRepository } from '../../../domains/merge-requests/merge-requests.repository.js';
import type { MergeRequestsService } from '../../../domains/merge-requests/merge-requests.service.js';
import type { AutoMergeService } from '../../../domains/auto-merge/index.js';
import type { MergingDomain } from '../../../domains/merge-requests/merging/index.js';
import type { AwardEmojiService } from '../../../domains/notes/award-emoji.service.js';
import type { DiscussionsService } from '../../../domains/notes/discussions.service.js';
import type { NoteAccess, NoteScope } from '../../../domains/notes/note-access.js';
import type { NoteLocator } from '../../../domains/notes/note-locator.js';
import type { Discussion, Note } from '../../../domains/notes/note.js';
import type { NotesService } from '../../../domains/notes/notes.service.js';
import type { UsersRepository } from '../../../domains/users/users.repository.js';
import type { MarkdownService } from '../../../markdown/markdown.service.js';
import type { UrlBuilder } from '../../rest/entities/users.js';

/**
 * What the editor part of the schema calls: the same services the REST routes call, so every
 * rule (who may comment, resolve, merge; what a valid note or position is) is theirs.
 */
export interface EditorDeps {
  notes: Pick<NotesService, 'get' | 'create' | 'update' | 'remove'>;
  discussions: Pick<DiscussionsService, 'list' | 'get' | 'create' | 'reply' | 'resolve'>;
  awardEmoji: Pick<AwardEmojiService, 'toggle'>;
  noteAccess: Pick<NoteAccess, 'abilities'>;
  locator: NoteLocator;
  mergeRequests: Pick<MergeRequestsService, 'update'>;
  merging: Pick<MergingDomain['merging'], 'merge'>;
  /** mergeRequestAccept with a `strategy` sets auto-merge (domains/auto-merge/) */
  autoMerge: Pick<AutoMergeService, 'mergeOrSet'>;
  /** assignees and reviewers of merge requests */
  mergeRequestUsers: Pick<MergeRequestsRepository, 'assignees' | 'reviewers'>;
  users: Pick<UsersRepository, 'findByUsername'>;
  markdown: Pick<MarkdownService, 'renderMany'>;
  urls: UrlBuilder;
}

/** A note the caller may read, with the merge request scope it was read through. */
export interface NoteNode {
  note: Note;
  scope: NoteScope;
  /** the note's whole thread, when it was read with it */
  discussion?: Discussion;
}

/** A thread the caller may read, with its notes. */
export interface DiscussionNode {
  discussion: Discussion;
  scope: NoteScope;
}
