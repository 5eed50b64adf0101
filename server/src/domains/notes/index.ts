import type { Database } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { AwardEmojiRepository } from './award-emoji.repository.js';
import { createAwardEmojiService } from './award-emoji.service.js';
import { createDiscussionsService } from './discussions.service.js';
import { createDraftNotesRepository } from './draft-notes.repository.js';
import { createDraftNotesService } from './draft-notes.service.js';
import type { NoteAccess } from './note-access.js';
import { createNoteWriter } from './note-writer.js';
import type { NotesRepository } from './notes.repository.js';
import { createNotesService, type NoteSuggestions } from './notes.service.js';
import { createPositionValidator } from './position-validator.js';
import { createSystemNotes } from './system-notes.service.js';
import { createSystemNotesRepository } from './system-notes.repository.js';

/**
 * The discussions domain built from its repositories, for the composition root (app.ts):
 * notes, threads, drafts and award emoji of merge requests, and the system notes projected
 * from merge request events and versions. The repositories and the access rules are the
 * composition root's: other domains read thread counts and votes from the same ones.
 */
export function createNotesDomain(deps: {
  db: Database;
  logger: Pick<Logger, 'warn'>;
  notes: NotesRepository;
  awards: AwardEmojiRepository;
  access: NoteAccess;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  events?: Pick<EventBus, 'publish'>;
  /** suggested changes shown with diff notes (domains/suggestions/) */
  suggestions?: NoteSuggestions;
}) {
  const { db, notes, awards, access } = deps;
  const writer = createNoteWriter({ notes, events: deps.events });
  const positions = createPositionValidator({ db, storage: deps.storage });
  const systemNotes = createSystemNotes({ db, systemNotes: createSystemNotesRepository(db), notes, storage: deps.storage, logger: deps.logger });
  const notesService = createNotesService({ db, access, notes, writer, systemNotes, suggestions: deps.suggestions });
  return {
    notes: notesService,
    discussions: createDiscussionsService({ db, access, notes, writer, positions, systemNotes, notesService, suggestions: deps.suggestions }),
    draftNotes: createDraftNotesService({ db, access, drafts: createDraftNotesRepository(db), notes, writer, positions }),
    awardEmoji: createAwardEmojiService({ access, awards, notes }),
  };
}
