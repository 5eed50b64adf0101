/**
 * System notes ("closed", "changed title from … to …", "added 3 commits"), written when what
 * they report happens; lists only read them.
 *
 * The merge request services write each change to merge_request_events in the transaction that
 * makes it, and merge_requests.recordEvent announces `merge_request.event_recorded` there: its
 * reaction (onEventRecorded) writes the note in that same transaction, so the change and its
 * note commit or roll back together. A push records a version in merge_request_diffs and
 * announces `merge_request.version_recorded`; "added N commits" needs the commit list from git,
 * so that reaction only enqueues SYSTEM_NOTES_JOB in the version's transaction and the job runs
 * git outside any transaction. merge_request_system_note_sources remembers each event and version
 * that was looked at (also when it produced no note); its primary key makes every writer (the
 * reaction, the job, the upgrade's catch-up jobs) write a note once. Notes are dated when their
 * event or version happened.
 */
import { countCommits, listCommits } from '../../git/index.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import type { DomainEvent } from '../../platform/events.js';
import type { JobPayloadMap, JobQueue } from '../../platform/queue.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import { newDiscussionId } from './note-writer.js';
import type { NotesRepository } from './notes.repository.js';
import { commitsNote, eventNote, SYSTEM_NOTE_COMMITS_LIMIT, type SystemNoteText } from './system-note-text.js';
import type { PendingEvent, PendingVersion, SystemNotesRepository } from './system-notes.repository.js';

/** Writes the system notes a merge request has not got yet (its versions' "added N commits"; after an upgrade, older events too). */
export const SYSTEM_NOTES_JOB = 'notes.system_notes' satisfies keyof JobPayloadMap;

export function createSystemNotes(deps: {
  db: Pick<Database, 'transaction'>;
  queue: Pick<JobQueue, 'enqueue'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findById'>;
  systemNotes: SystemNotesRepository;
  notes: Pick<NotesRepository, 'insertDiscussion' | 'insertNote'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
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

  /** Writes the note of `item` in `tx` unless another writer has claimed it. */
  async function write(mergeRequest: Pick<MergeRequest, 'id' | 'target_project_id'>, item: PendingEvent | PendingVersion, note: { text: SystemNoteText; authorId: number | null } | null, tx: Queryable): Promise<void> {
    if (!(await deps.systemNotes.claim(item.source, item.id, mergeRequest.id, tx)) || !note) return;
    const discussionId = newDiscussionId();
    const base = { projectId: mergeRequest.target_project_id, mergeRequestId: mergeRequest.id };
    await deps.notes.insertDiscussion({ id: discussionId, ...base, internal: false, createdAt: item.created_at }, tx);
    const noteId = await deps.notes.insertNote(
      { ...base, discussionId, type: null, authorId: note.authorId, body: note.text.body, system: true, systemAction: note.text.action, createdAt: item.created_at },
      tx,
    );
    await deps.systemNotes.attachNote(item.source, item.id, noteId, tx);
  }

  async function project(mergeRequest: MergeRequest, item: PendingEvent | PendingVersion): Promise<void> {
    // git runs before the transaction; the claim inside it decides who writes the note
    const note = item.source === 'event' ? eventText(item) : await versionNote(mergeRequest, item);
    await deps.db.transaction((tx) => write(mergeRequest, item, note, tx));
  }

  return {
    /** The `merge_request.event_recorded` reaction: the event's note, in the event's transaction. */
    async onEventRecorded(event: DomainEvent<'merge_request.event_recorded'>, tx: Queryable): Promise<void> {
      const found = await deps.systemNotes.event(event.payload.eventId, tx);
      if (found) await write({ id: found.merge_request_id, target_project_id: found.target_project_id }, found, eventText(found), tx);
    },

    /** The `merge_request.version_recorded` reaction: the job that writes "added N commits", enqueued in the version's transaction. */
    async onVersionRecorded(event: DomainEvent<'merge_request.version_recorded'>, tx: Queryable): Promise<void> {
      await deps.queue.enqueue(SYSTEM_NOTES_JOB, { mergeRequestId: event.payload.mergeRequestId }, { tx });
    },

    /** SYSTEM_NOTES_JOB: every event and version of the merge request that has no note yet, oldest first; a failure retries the job. */
    async run(payload: { mergeRequestId: number }): Promise<void> {
      const mergeRequest = await deps.mergeRequests.findById(payload.mergeRequestId);
      if (!mergeRequest) return;
      for (const item of await deps.systemNotes.pending(mergeRequest.id)) await project(mergeRequest, item);
    },
  };
}

export type SystemNotes = ReturnType<typeof createSystemNotes>;
