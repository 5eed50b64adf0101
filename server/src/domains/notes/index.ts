import type { Database } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import { createAwardEmojiRepository } from './award-emoji.repository.js';
import { createAwardEmojiService } from './award-emoji.service.js';
import { createDiscussionsService } from './discussions.service.js';
import { createDraftNotesRepository } from './draft-notes.repository.js';
import { createDraftNotesService } from './draft-notes.service.js';
import { createNoteAccess } from './note-access.js';
import { createNoteWriter } from './note-writer.js';
import { createNotesRepository } from './notes.repository.js';
import { createNotesService } from './notes.service.js';
import { createPositionValidator } from './position-validator.js';
import { createSystemNotes } from './system-notes.service.js';
import { createSystemNotesRepository } from './system-notes.repository.js';

/**
 * The discussions domain built from its repositories, for the composition root (app.ts):
 * notes, threads, drafts and award emoji of merge requests, and the system notes projected
 * from merge request events and versions.
 */
export function createNotesDomain(deps: {
  db: Database;
  logger: Pick<Logger, 'warn'>;
  mergeRequests: Pick<MergeRequestsService, 'open'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  events?: Pick<EventBus, 'publish'>;
}) {
  const { db } = deps;
  const notes = createNotesRepository(db);
  const awards = createAwardEmojiRepository(db);
  const access = createNoteAccess({ mergeRequests: deps.mergeRequests, notes });
  const writer = createNoteWriter({ notes, events: deps.events });
  const positions = createPositionValidator({ db, storage: deps.storage });
  const systemNotes = createSystemNotes({ db, systemNotes: createSystemNotesRepository(db), notes, storage: deps.storage, logger: deps.logger });
  const notesService = createNotesService({ db, access, notes, writer, systemNotes });
  return {
    notes: notesService,
    discussions: createDiscussionsService({ db, access, notes, writer, positions, systemNotes, notesService }),
    draftNotes: createDraftNotesService({ db, access, drafts: createDraftNotesRepository(db), notes, writer, positions }),
    awardEmoji: createAwardEmojiService({ access, awards, notes }),
    /**
     * For other domains, per merge request id: unresolved threads (DISCUSSIONS_NOT_RESOLVED),
     * votes (the entity's upvotes/downvotes) and user_notes_count.
     */
    discussionStats: {
      unresolvedThreadCounts: notes.unresolvedThreadCounts,
      votes: awards.votes,
      userNotesCounts: notes.userNotesCounts,
    },
  };
}

export type NotesDomain = ReturnType<typeof createNotesDomain>;
