/**
 * The SQL of tracing diff threads onto new versions (outdated-discussions.service.ts). Every
 * statement names the merge request with the discussion, as the notes repository does.
 */
import type { Queryable } from '../../platform/db/database.js';
import type { DiffRefs, NotePosition } from './position.js';

export interface TraceTarget {
  id: number;
  iid: number;
  project_id: number;
  source_project_id: number | null;
  source_branch: string;
  resolve_outdated_diff_discussions: boolean;
  /** the latest version's refs (base falls back to start for unrelated histories) */
  base_sha: string;
  start_sha: string;
  head_sha: string;
}

export interface TracedDiscussion {
  id: string;
  seq: number;
  /** the thread's first diff note's position: all its notes share it */
  position: NotePosition;
}

/** A draft diff comment (not a reply: a reply drafted in a thread has no position of its own). */
export interface TracedDraft {
  id: number;
  position: NotePosition;
}

export function createOutdatedDiscussionsRepository(db: Queryable) {
  return {
    /** The merge request with its latest version, or nothing (no version yet, or gone). */
    async target(mergeRequestId: number): Promise<TraceTarget | undefined> {
      const { rows } = await db.query<TraceTarget>(
        `SELECT mr.id, mr.iid, mr.target_project_id AS project_id, mr.source_project_id, mr.source_branch,
                p.resolve_outdated_diff_discussions,
                coalesce(v.base_commit_sha, v.start_commit_sha) AS base_sha, v.start_commit_sha AS start_sha, v.head_commit_sha AS head_sha
           FROM merge_requests mr
           JOIN projects p ON p.id = mr.target_project_id
           JOIN merge_request_diffs v ON v.id = mr.latest_diff_id
          WHERE mr.id = $1`,
        [mergeRequestId],
      );
      return rows[0];
    },

    /**
     * Diff threads still active but on other refs than `refs`, after `afterSeq`, in order:
     * one batch of the threads a new version left behind. Outdated threads stay where they are.
     */
    async threadsNotOn(mergeRequestId: number, refs: DiffRefs, afterSeq: number, limit: number): Promise<TracedDiscussion[]> {
      const { rows } = await db.query<TracedDiscussion>(
        `SELECT d.id, d.seq, n.position
           FROM discussions d
           CROSS JOIN LATERAL (SELECT position FROM notes n WHERE n.discussion_id = d.id AND n.merge_request_id = $1 AND n.type = 'DiffNote'
                                ORDER BY n.created_at, n.id LIMIT 1) n
          WHERE d.merge_request_id = $1 AND NOT d.outdated AND d.seq > $2
            AND (n.position->>'base_sha', n.position->>'start_sha', n.position->>'head_sha') IS DISTINCT FROM ($3::text, $4::text, $5::text)
          ORDER BY d.seq
          LIMIT $6`,
        [mergeRequestId, afterSeq, refs.base_sha, refs.start_sha, refs.head_sha, limit],
      );
      return rows;
    },

    /** Locks a thread that is still active and still at `position` (else another run got there first). */
    async lockIfAt(mergeRequestId: number, discussionId: string, position: NotePosition, tx: Queryable): Promise<boolean> {
      const { rows } = await tx.query(
        `SELECT 1 FROM discussions d WHERE d.id = $2 AND d.merge_request_id = $1 AND NOT d.outdated
            AND EXISTS (SELECT 1 FROM notes n WHERE n.discussion_id = d.id AND n.merge_request_id = $1 AND n.type = 'DiffNote' AND n.position = $3::jsonb)
          FOR UPDATE OF d`,
        [mergeRequestId, discussionId, JSON.stringify(position)],
      );
      return rows.length > 0;
    },

    /** Moves every diff note of a thread to its traced position (no updated_at: nobody edited them; GitLab's Timeless). */
    async move(mergeRequestId: number, discussionId: string, position: NotePosition, lineCode: string | null, tx: Queryable): Promise<void> {
      await tx.query(`UPDATE notes SET position = $3::jsonb, line_code = $4 WHERE merge_request_id = $1 AND discussion_id = $2 AND type = 'DiffNote'`, [
        mergeRequestId,
        discussionId,
        JSON.stringify(position),
        lineCode,
      ]);
    },

    async markOutdated(mergeRequestId: number, discussionId: string, changePosition: NotePosition | null, tx: Queryable): Promise<void> {
      await tx.query('UPDATE discussions SET outdated = true, change_position = $3::jsonb WHERE merge_request_id = $1 AND id = $2', [
        mergeRequestId,
        discussionId,
        changePosition ? JSON.stringify(changePosition) : null,
      ]);
    },

    /** Resolves a thread's unresolved notes for a push (GitLab: resolve_without_save(user, resolved_by_push: true)). Returns how many. */
    async resolveByPush(mergeRequestId: number, discussionId: string, userId: number | null, tx: Queryable): Promise<number> {
      const { rows } = await tx.query(
        `UPDATE notes SET resolved_at = now(), resolved_by_id = $3, resolved_by_push = true
          WHERE merge_request_id = $1 AND discussion_id = $2 AND type IS NOT NULL AND NOT system AND resolved_at IS NULL
          RETURNING id`,
        [mergeRequestId, discussionId, userId],
      );
      return rows.length;
    },

    /**
     * Draft diff comments of every author on other refs than `refs`, after `afterId`, in order:
     * one batch of the drafts a new version left behind. An outdated draft keeps its old
     * version's position, so it comes again after each push (and may follow its line again).
     */
    async draftsNotOn(mergeRequestId: number, refs: DiffRefs, afterId: number, limit: number): Promise<TracedDraft[]> {
      const { rows } = await db.query<TracedDraft>(
        `SELECT id, position FROM draft_notes
          WHERE merge_request_id = $1 AND id > $2 AND discussion_id IS NULL AND position IS NOT NULL
            AND (position->>'base_sha', position->>'start_sha', position->>'head_sha') IS DISTINCT FROM ($3::text, $4::text, $5::text)
          ORDER BY id
          LIMIT $6`,
        [mergeRequestId, afterId, refs.base_sha, refs.start_sha, refs.head_sha, limit],
      );
      return rows.map((row) => ({ id: Number(row.id), position: row.position }));
    },

    /**
     * Moves a draft to its traced position if it is still where it was traced from (its author
     * may have edited or published it meanwhile): a compare-and-swap, no lock. No updated_at:
     * its author did not edit it. Returns whether it moved.
     */
    async moveDraft(mergeRequestId: number, draftId: number, from: NotePosition, to: NotePosition, lineCode: string | null): Promise<boolean> {
      const { rows } = await db.query(
        'UPDATE draft_notes SET position = $4::jsonb, line_code = $5 WHERE merge_request_id = $1 AND id = $2 AND position = $3::jsonb RETURNING id',
        [mergeRequestId, draftId, JSON.stringify(from), JSON.stringify(to), lineCode],
      );
      return rows.length > 0;
    },

    /** Who pushed the head: the latest push of the source branch to that SHA (the API commits record one too). */
    async pusherOf(projectId: number, branch: string, sha: string): Promise<number | null> {
      const { rows } = await db.query<{ user_id: number | null }>(
        'SELECT user_id FROM push_events WHERE project_id = $1 AND ref = $2 AND new_sha = $3 ORDER BY id DESC LIMIT 1',
        [projectId, `refs/heads/${branch}`, sha],
      );
      return rows[0]?.user_id ?? null;
    },

    /** The merge request iid of a note of the project at `fullPath` (the outdated lines endpoint names only the note). */
    async noteInProject(fullPath: string, noteId: number): Promise<{ merge_request_iid: number } | undefined> {
      const { rows } = await db.query<{ merge_request_iid: number }>(
        `SELECT mr.iid AS merge_request_iid FROM notes n
           JOIN merge_requests mr ON mr.id = n.merge_request_id
           JOIN routes r ON r.source_type = 'project' AND r.source_id = n.project_id
          WHERE n.id = $2 AND lower(r.path) = lower($1)`,
        [fullPath, noteId],
      );
      return rows[0];
    },

    /** A thread's state (outdated, change position). */
    async threadState(mergeRequestId: number, discussionId: string): Promise<{ outdated: boolean; change_position: NotePosition | null } | undefined> {
      const { rows } = await db.query<{ outdated: boolean; change_position: NotePosition | null }>(
        'SELECT outdated, change_position FROM discussions WHERE merge_request_id = $1 AND id = $2',
        [mergeRequestId, discussionId],
      );
      return rows[0];
    },
  };
}

export type OutdatedDiscussionsRepository = ReturnType<typeof createOutdatedDiscussionsRepository>;
