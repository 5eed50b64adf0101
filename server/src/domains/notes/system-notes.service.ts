/**
 * System notes ("closed", "changed title from … to …", "added 3 commits") as a lazy projection
 * of what the merge request domain already records.
 *
 * Why a projection rather than a hook in every place that changes a merge request: the merge
 * request services already write each change to merge_request_events in the transaction that
 * makes it (and the merge code writes `merged`), and every push that moves the source records
 * a version in merge_request_diffs. Those two tables are the history; a system note is how the
 * history reads. So before a list is served, sync() turns events and versions that have no
 * note yet into notes, dated when they happened. Nothing that changes a merge request needs to
 * know notes exist, a new writer of events gets notes for free, and a note can never be lost
 * by a failure between "changed" and "noted". merge_request_system_note_sources remembers what
 * was looked at (also when it produced no note), and its primary key makes two concurrent
 * lists produce one note. Cost when nothing is pending: two index lookups.
 */
import { countCommits, listCommits } from '../../git/index.js';
import type { Database } from '../../platform/db/database.js';
import type { Logger } from '../../platform/logger.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import { newDiscussionId } from './note-writer.js';
import type { NotesRepository } from './notes.repository.js';
import { commitsNote, eventNote, SYSTEM_NOTE_COMMITS_LIMIT, type SystemNoteText } from './system-note-text.js';
import type { PendingEvent, PendingVersion, SystemNotesRepository } from './system-notes.repository.js';

export function createSystemNotes(deps: {
  db: Pick<Database, 'transaction'>;
  systemNotes: SystemNotesRepository;
  notes: Pick<NotesRepository, 'insertDiscussion' | 'insertNote'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  logger: Pick<Logger, 'warn'>;
}) {
  /**
   * "added N commits": the merge request's commits (not the target branch's) that the previous
   * head did not have. After a rebase those are the rebased commits, never the target's commits
   * the branch now sits on (GitLab lists the merge request's own new commits).
   */
  async function versionNote(mergeRequest: MergeRequest, version: PendingVersion): Promise<{ text: SystemNoteText; authorId: number | null } | null> {
    if (version.previous_id === null || version.previous_head_sha === null || version.previous_head_sha === version.head_commit_sha) return null;
    const repo = deps.storage.pathFor(mergeRequest.target_project_id);
    const range = `${version.previous_head_sha}..${version.head_commit_sha}`;
    const exclude = [version.start_commit_sha];
    const [page, total] = await Promise.all([listCommits(repo, { ref: range, exclude, limit: SYSTEM_NOTE_COMMITS_LIMIT }), countCommits(repo, { ref: range, exclude })]);
    if (!page || !total) return null;
    const compare = `/${mergeRequest.target_full_path}/-/merge_requests/${mergeRequest.iid}/diffs?diff_id=${version.id}&start_sha=${version.previous_head_sha}`;
    const pusher = mergeRequest.source_project_id === null ? null : await deps.systemNotes.pusherOf(mergeRequest.source_project_id, mergeRequest.source_branch, version.head_commit_sha);
    return { text: commitsNote(page.commits, total, compare), authorId: pusher ?? mergeRequest.author_id };
  }

  function eventText(event: PendingEvent): { text: SystemNoteText; authorId: number | null } | null {
    const text = eventNote({ action: event.action, from: event.from_value, to: event.to_value });
    return text ? { text, authorId: event.user_id } : null;
  }

  async function project(mergeRequest: MergeRequest, item: PendingEvent | PendingVersion): Promise<void> {
    // git runs before the transaction; the claim inside it decides who writes the note
    const note = item.source === 'event' ? eventText(item) : await versionNote(mergeRequest, item);
    await deps.db.transaction(async (tx) => {
      if (!(await deps.systemNotes.claim(item.source, item.id, mergeRequest.id, tx)) || !note) return;
      const discussionId = newDiscussionId();
      const base = { projectId: mergeRequest.target_project_id, mergeRequestId: mergeRequest.id };
      await deps.notes.insertDiscussion({ id: discussionId, ...base, internal: false, createdAt: item.created_at }, tx);
      const noteId = await deps.notes.insertNote(
        { ...base, discussionId, type: null, authorId: note.authorId, body: note.text.body, system: true, systemAction: note.text.action, createdAt: item.created_at },
        tx,
      );
      await deps.systemNotes.attachNote(item.source, item.id, noteId, tx);
    });
  }

  return {
    /** Brings the merge request's system notes up to date; a failure is logged and retried next time. */
    async sync(mergeRequest: MergeRequest): Promise<void> {
      for (const item of await deps.systemNotes.pending(mergeRequest.id)) {
        try {
          await project(mergeRequest, item);
        } catch (error) {
          deps.logger.warn({ err: error, mergeRequestId: mergeRequest.id, source: item.source, sourceId: item.id }, 'writing a system note failed; it is retried on the next list');
          return;
        }
      }
    },
  };
}

export type SystemNotes = ReturnType<typeof createSystemNotes>;
