import type { UserBasic } from '../../lib/gitlab-types';

/** GitLab's Entities::Note as server/src/api/rest/entities/notes.ts presents it. */
export interface NoteEntity {
  id: number;
  type: null | 'DiscussionNote' | 'DiffNote';
  body: string;
  author: UserBasic | null;
  created_at: string;
  updated_at: string;
  system: boolean;
  resolvable: boolean;
  resolved?: boolean;
  resolved_by?: UserBasic | null;
  resolved_at?: string | null;
  /** not in GitLab's REST entity yet; 'Automatically resolved' shows when a server sends it */
  resolved_by_push?: boolean;
  internal: boolean;
  /** ours: sent back with an edit, a stale one answers 409 */
  lock_version: number;
  /** what the reader may do to it, by the server's note rule (GitLab's web note entity) */
  /** when and by whom the body was last edited; null when never */
  last_edited_at?: string | null;
  last_edited_by?: UserBasic | null;
  current_user?: { can_edit: boolean; can_delete: boolean; can_award_emoji: boolean; can_resolve_discussion: boolean };
}

export interface DiscussionEntity {
  id: string;
  individual_note: boolean;
  notes: NoteEntity[];
}

/** What a note author's role badges need to know about them. */
export interface AuthorRole {
  /** the effective project access level; null for a non-member */
  access_level: number | null;
  /** not a member, but has a merged merge request in the project (GitLab's is_contributor) */
  contributor: boolean;
}
