/**
 * The records of the discussions domain as the repositories return them, and GitLab's limits.
 * Pure types and constants. docs/discussions.md describes the model.
 */
import type { NotePosition } from './position.js';

/** GitLab: Note validates `note` at 1,000,000 characters (also a CHECK in the table). */
export const MAX_NOTE_LENGTH = 1_000_000;

/** null: an individual note (a plain comment); threads are DiscussionNote; diff comments DiffNote. */
export type NoteType = null | 'DiscussionNote' | 'DiffNote';

export interface Note {
  id: number;
  project_id: number;
  merge_request_id: number;
  discussion_id: string;
  type: NoteType;
  author_id: number | null;
  body: string;
  system: boolean;
  system_action: string | null;
  position: NotePosition | null;
  original_position: NotePosition | null;
  line_code: string | null;
  commit_id: string | null;
  resolved_at: Date | null;
  resolved_by_id: number | null;
  resolved_by_push: boolean;
  lock_version: number;
  last_edited_at: Date | null;
  updated_by_id: number | null;
  created_at: Date;
  updated_at: Date;
  /** from the discussion: every note of a discussion shares it */
  internal: boolean;
  /** from the discussion: a push changed the commented line (outdated-discussions.service.ts) */
  outdated?: boolean;
  /** from the discussion: where that change shows (GitLab's DiffNote#change_position) */
  change_position?: NotePosition | null;
}

/** GitLab's Note#resolvable?: thread notes that are not system notes. */
export function isResolvable(note: Pick<Note, 'type' | 'system'>): boolean {
  return note.type !== null && !note.system;
}

/** A discussion with its notes, oldest first (GitLab's `fresh` order). */
export interface Discussion {
  id: string;
  notes: Note[];
}

export interface DraftNote {
  id: number;
  merge_request_id: number;
  author_id: number;
  note: string;
  discussion_id: string | null;
  resolve_discussion: boolean;
  internal: boolean;
  commit_id: string | null;
  line_code: string | null;
  position: NotePosition | null;
  created_at: Date;
  updated_at: Date;
}

export interface AwardEmoji {
  id: number;
  name: string;
  user_id: number;
  merge_request_id: number;
  note_id: number | null;
  created_at: Date;
  updated_at: Date;
}

/** What a note hangs on: the merge request and the project it lives in. */
export interface Noteable {
  projectId: number;
  mergeRequestId: number;
  mergeRequestIid: number;
  /** the project's full path, for web links (outdated_line_change_path) */
  projectPath?: string;
}
