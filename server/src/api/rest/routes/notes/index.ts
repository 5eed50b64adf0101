import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../../context.js';
import { awardEmojiRoutes } from './award-emoji.js';
import { discussionRoutes } from './discussions.js';
import { draftNoteRoutes } from './draft-notes.js';
import { noteRoutes } from './notes.js';

/** Discussions of merge requests: notes, threads, draft notes and award emoji. */
export function notesRoutes(app: FastifyInstance, ctx: RestContext<'awardEmoji' | 'discussions' | 'draftNotes' | 'notes' | 'reviews'>): void {
  noteRoutes(app, ctx);
  discussionRoutes(app, ctx);
  draftNoteRoutes(app, ctx);
  awardEmojiRoutes(app, ctx);
}
