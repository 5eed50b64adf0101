/**
 * SQL of the system-note projection: which merge request events and versions have not been
 * looked at yet, claiming one (the primary key of merge_request_system_note_sources makes
 * concurrent projections claim it once), and who pushed a version's head.
 */
import type { Queryable } from '../../platform/db/database.js';
import type { MergeRequestEventAction } from '../merge-requests/merge-request.js';

export interface PendingEvent {
  source: 'event';
  id: number;
  user_id: number | null;
  action: MergeRequestEventAction;
  from_value: string | null;
  to_value: string | null;
  created_at: Date;
}

export interface PendingVersion {
  source: 'version';
  id: number;
  head_commit_sha: string;
  /** the target branch's tip the version was compared with */
  start_commit_sha: string;
  created_at: Date;
  /** the version before it (null for the first version, which reports nothing) */
  previous_id: number | null;
  previous_head_sha: string | null;
}

export function createSystemNotesRepository(db: Queryable) {
  return {
    /**
     * Events and versions of one merge request that have no note yet, oldest first (the
     * SYSTEM_NOTES_JOB's work).
     */
    async pending(mergeRequestId: number): Promise<Array<PendingEvent | PendingVersion>> {
      const [events, versions] = await Promise.all([
        db.query<PendingEvent>(
          `SELECT 'event' AS source, e.id, e.user_id, e.action, e.from_value, e.to_value, e.created_at FROM merge_request_events e
            WHERE e.merge_request_id = $1
              AND NOT EXISTS (SELECT 1 FROM merge_request_system_note_sources s WHERE s.source = 'event' AND s.source_id = e.id)
            ORDER BY e.id`,
          [mergeRequestId],
        ),
        db.query<PendingVersion>(
          `SELECT 'version' AS source, v.id, v.head_commit_sha, v.start_commit_sha, v.created_at, p.id AS previous_id, p.head_commit_sha AS previous_head_sha
             FROM merge_request_diffs v
             LEFT JOIN LATERAL (SELECT id, head_commit_sha FROM merge_request_diffs x WHERE x.merge_request_id = v.merge_request_id AND x.id < v.id ORDER BY x.id DESC LIMIT 1) p ON true
            WHERE v.merge_request_id = $1
              AND NOT EXISTS (SELECT 1 FROM merge_request_system_note_sources s WHERE s.source = 'version' AND s.source_id = v.id)
            ORDER BY v.id`,
          [mergeRequestId],
        ),
      ]);
      return [...events.rows, ...versions.rows].sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    },

    /** One event with its merge request's project, unless it has been looked at already. */
    async event(eventId: number, tx: Queryable): Promise<(PendingEvent & { merge_request_id: number; target_project_id: number }) | undefined> {
      const { rows } = await tx.query<PendingEvent & { merge_request_id: number; target_project_id: number }>(
        `SELECT 'event' AS source, e.id, e.user_id, e.action, e.from_value, e.to_value, e.created_at, e.merge_request_id, m.target_project_id
           FROM merge_request_events e JOIN merge_requests m ON m.id = e.merge_request_id
          WHERE e.id = $1 AND NOT EXISTS (SELECT 1 FROM merge_request_system_note_sources s WHERE s.source = 'event' AND s.source_id = e.id)`,
        [eventId],
      );
      return rows[0];
    },

    /** True for the one caller that records this source; everyone else leaves it alone. */
    async claim(source: 'event' | 'version', sourceId: number, mergeRequestId: number, tx: Queryable): Promise<boolean> {
      const { rowCount } = await tx.query(
        'INSERT INTO merge_request_system_note_sources (source, source_id, merge_request_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [source, sourceId, mergeRequestId],
      );
      return rowCount > 0;
    },

    async attachNote(source: 'event' | 'version', sourceId: number, noteId: number, tx: Queryable): Promise<void> {
      await tx.query('UPDATE merge_request_system_note_sources SET note_id = $3 WHERE source = $1 AND source_id = $2', [source, sourceId, noteId]);
    },

    /** Who pushed `sha` to the branch (the push event), for the author of "added N commits". */
    async pusherOf(projectId: number, branch: string, sha: string): Promise<number | null> {
      const { rows } = await db.query<{ user_id: number | null }>(
        'SELECT user_id FROM push_events WHERE project_id = $1 AND ref = $2 AND new_sha = $3 ORDER BY id DESC LIMIT 1',
        [projectId, `refs/heads/${branch}`, sha],
      );
      return rows[0]?.user_id ?? null;
    },
  };
}

export type SystemNotesRepository = ReturnType<typeof createSystemNotesRepository>;
