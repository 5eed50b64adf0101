import type { Database } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
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

/**
 * The discussions domain built from its repositories, for the composition root (app.ts):
 * notes, threads, drafts and award emoji of merge requests (system notes are written by
 * system-notes.service.ts, which the composition root wires to the events that cause them). The repositories and the access rules are the
 * composition root's: other domains read thread counts and votes from the same ones.
 */
export function createNotesDomain(deps: {
  db: Database;
  notes: NotesRepository;
  awards: AwardEmojiRepository;
  access: NoteAccess;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  events?: Pick<EventBus, 'publish'>;
  /** suggested changes shown with diff notes (domains/suggestions/) */
  suggestions?: NoteSuggestions;
}) {
  const { db, notes, awards, access } = deps;
  const writer = createNoteWriter({ notes, events: deps.events, suggestions: deps.suggestions });
  const positions = createPositionValidator({ db, storage: deps.storage });
  const notesService = createNotesService({ db, access, notes, writer, suggestions: deps.suggestions });
  return {
    notes: notesService,
    discussions: createDiscussionsService({ db, access, notes, writer, positions, notesService, suggestions: deps.suggestions }),
    draftNotes: createDraftNotesService({ db, access, drafts: createDraftNotesRepository(db), notes, writer, positions }),
    awardEmoji: createAwardEmojiService({ access, awards, notes }),
  };
}
