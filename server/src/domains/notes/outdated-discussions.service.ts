/**
 * Diff threads after a push (GitLab's MergeRequest#update_diff_discussion_positions and
 * Discussions::UpdateDiffPositionService): when a new version is recorded, every active diff
 * thread is traced onto it (position-tracer.ts). A thread whose line moved follows it; one
 * whose line changed becomes outdated, keeps its position on the old version and remembers
 * where the change shows; with the project's `resolve_outdated_diff_discussions` the push
 * also resolves it (`resolved_by_push`, 'Automatically resolved' on the page).
 *
 * The work runs in a job (OUTDATED_DISCUSSIONS_JOB) that the `merge_request.version_recorded`
 * event enqueues, in batches of threads. It is idempotent: it traces only threads still
 * active on other refs than the latest version's, each from the refs it is on, and writes
 * each under a lock after checking the thread is still where it was traced from; a second
 * run, or a run for an older event, finds nothing left to do.
 */
import { diffTreesForPaths, DIFF_MAX_PATCH_BYTES, NO_DIFF_LIMITS, type DiffLimits, type FileDiff } from '../../git/index.js';
import type { Actor } from '../../auth/actor.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import type { DomainEvent, EventBus } from '../../platform/events.js';
import { NotFoundError } from '../../platform/errors.js';
import type { JobPayloadMap, JobQueue } from '../../platform/queue.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import { parseDiffLines } from './diff-lines.js';
import type { NoteAccess } from './note-access.js';
import type { OutdatedDiscussionsRepository, TraceTarget } from './outdated-discussions.repository.js';
import { positionFilePath, type DiffRefs, type NotePosition } from './position.js';
import { outdatedExcerpt, type ExcerptLine } from './position-tracer-lines.js';
import { tracePosition, type DiffSet, type TraceResult } from './position-tracer.js';

export const OUTDATED_DISCUSSIONS_JOB = 'notes.update_diff_positions' satisfies keyof JobPayloadMap;

/** Threads traced and written per batch (one transaction each). */
export const TRACE_BATCH_SIZE = 100;

/** Every changed file of the named paths with its text; a patch over GitLab's limit cannot be followed (outdated). */
const TRACE_LIMITS: DiffLimits = { ...NO_DIFF_LIMITS, maxPatchBytes: DIFF_MAX_PATCH_BYTES };

const refsOf = (position: DiffRefs): DiffRefs => ({ base_sha: position.base_sha, start_sha: position.start_sha, head_sha: position.head_sha });
const unique = (values: Iterable<string>) => [...new Set(values)];

function diffSet(refs: DiffRefs, files: readonly FileDiff[]): DiffSet {
  return {
    refs,
    files: files.map((file) => ({ oldPath: file.old_path, newPath: file.new_path, diff: file.binary || file.too_large || file.collapsed ? null : parseDiffLines(file.diff) })),
  };
}

export function createOutdatedDiscussions(deps: {
  db: Pick<Database, 'transaction'>;
  repository: OutdatedDiscussionsRepository;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  queue: Pick<JobQueue, 'enqueue'>;
  events: Pick<EventBus, 'publish'>;
  access: Pick<NoteAccess, 'open' | 'note'>;
}) {
  const { repository } = deps;

  /** The three diffs that trace positions from `from` to `to`, for the files the positions name. */
  async function loadDiffs(repoPath: string, from: DiffRefs, to: DiffRefs, positions: readonly NotePosition[]) {
    const paths = unique(positions.flatMap((position) => [position.old_path, position.new_path]));
    const between = async (a: string, b: string, names: string[]) => (a === b ? [] : (await diffTreesForPaths(repoPath, a, b, names, TRACE_LIMITS)).diffs);
    const [ac, bd] = await Promise.all([between(from.base_sha, to.base_sha, paths), between(from.head_sha, to.head_sha, paths)]);
    // A file the base or the push renamed is found in the new diff by its new name.
    const cdPaths = unique([...paths, ...[...ac, ...bd].flatMap((file) => [file.old_path, file.new_path])]);
    const cd = await between(to.base_sha, to.head_sha, cdPaths);
    return {
      ac: diffSet({ base_sha: from.base_sha, start_sha: from.base_sha, head_sha: to.base_sha }, ac),
      bd: diffSet({ base_sha: from.head_sha, start_sha: from.head_sha, head_sha: to.head_sha }, bd),
      cd: diffSet(to, cd),
    };
  }

  /** Traces one batch (threads or drafts); those on the same old version share their diffs. */
  async function traceBatch<T extends { position: NotePosition }>(repoPath: string, to: DiffRefs, batch: readonly T[]): Promise<Array<{ item: T; result: TraceResult }>> {
    const groups = new Map<string, T[]>();
    for (const item of batch) {
      const key = `${item.position.base_sha}:${item.position.head_sha}`;
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    const results: Array<{ item: T; result: TraceResult }> = [];
    for (const group of groups.values()) {
      const diffs = await loadDiffs(repoPath, refsOf(group[0]!.position), to, group.map((item) => item.position));
      for (const item of group) results.push({ item, result: tracePosition(item.position, diffs) });
    }
    return results;
  }

  /**
   * Draft diff comments follow their lines too (GitLab traces a merge request's draft notes with
   * its threads), so a review written before a push publishes onto the lines it was about. An
   * outdated draft keeps its position: it has no discussion to mark, and publishing it makes a
   * thread on the old version, as GitLab does. Each draft moves only if still where it was traced
   * from. Returns how many moved.
   */
  async function traceDrafts(target: TraceTarget, repoPath: string, to: DiffRefs): Promise<number> {
    let moved = 0;
    for (let after = 0; ; ) {
      const batch = await repository.draftsNotOn(target.id, to, after, TRACE_BATCH_SIZE);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!.id;
      for (const { item, result } of await traceBatch(repoPath, to, batch)) {
        if (!result.outdated && (await repository.moveDraft(target.id, item.id, item.position, result.position, result.lineCode))) moved++;
      }
      if (batch.length < TRACE_BATCH_SIZE) break;
    }
    return moved;
  }

  return {
    /** The `merge_request.version_recorded` reaction: the job is enqueued in the version's transaction. */
    async onVersionRecorded(event: DomainEvent<'merge_request.version_recorded'>, tx: Queryable): Promise<void> {
      await deps.queue.enqueue(OUTDATED_DISCUSSIONS_JOB, { mergeRequestId: event.payload.mergeRequestId }, { tx });
    },

    /**
     * The job: traces every thread and draft the latest version left behind. Returns how many
     * threads moved and became outdated, and how many drafts moved.
     */
    async run(payload: { mergeRequestId: number }): Promise<{ moved: number; outdated: number; draftsMoved: number }> {
      const counts = { moved: 0, outdated: 0, draftsMoved: 0 };
      const mergeRequestId = Number(payload.mergeRequestId);
      const target = Number.isSafeInteger(mergeRequestId) ? await repository.target(mergeRequestId) : undefined;
      if (!target) return counts;
      const to = refsOf(target);
      const repoPath = deps.storage.pathFor(target.project_id);
      let pusher: number | null | undefined;
      for (let after = 0; ; ) {
        const batch = await repository.threadsNotOn(target.id, to, after, TRACE_BATCH_SIZE);
        if (batch.length === 0) break;
        after = batch[batch.length - 1]!.seq;
        const results = await traceBatch(repoPath, to, batch);
        if (target.resolve_outdated_diff_discussions && pusher === undefined && results.some(({ result }) => result.outdated)) {
          pusher = target.source_project_id === null ? null : await repository.pusherOf(target.source_project_id, target.source_branch, target.head_sha);
        }
        await deps.db.transaction(async (tx) => {
          let outdated = 0;
          for (const { item: discussion, result } of results) {
            if (!(await repository.lockIfAt(target.id, discussion.id, discussion.position, tx))) continue;
            if (!result.outdated) {
              await repository.move(target.id, discussion.id, result.position, result.lineCode, tx);
              counts.moved++;
              continue;
            }
            await repository.markOutdated(target.id, discussion.id, result.changePosition, tx);
            if (target.resolve_outdated_diff_discussions) await repository.resolveByPush(target.id, discussion.id, pusher ?? null, tx);
            outdated++;
          }
          counts.outdated += outdated;
          // Outdated (and maybe resolved) threads: DISCUSSIONS_NOT_RESOLVED and open pages hear it.
          if (outdated > 0) await deps.events.publish('merge_request.changed', { mergeRequestId: target.id, projectId: target.project_id }, tx);
        });
        if (batch.length < TRACE_BATCH_SIZE) break;
      }
      counts.draftsMoved = await traceDrafts(target, repoPath, to);
      return counts;
    },

    /**
     * GitLab's `outdated_line_change` (web only): for a note of an outdated thread, the lines
     * of the diff that changed its line, as OutdatedDiscussionDiffLinesService returns them.
     * What the caller may not read is a 404; a thread that is not outdated has no such lines.
     */
    async lineChange(actor: Actor, projectPath: string, noteId: number): Promise<ExcerptLine[]> {
      const found = Number.isSafeInteger(noteId) && noteId > 0 ? await repository.noteInProject(projectPath, noteId) : undefined;
      if (!found) throw new NotFoundError('Note');
      const scope = await deps.access.open(actor, projectPath, found.merge_request_iid);
      const { note } = await deps.access.note(scope, noteId);
      const state = await repository.threadState(scope.noteable.mergeRequestId, note.discussion_id);
      if (!state?.outdated) return [];
      // No diff showed the change (GitLab: no change position): the lines the thread was written on.
      const position = state.change_position ?? note.original_position;
      if (!position || position.position_type !== 'text') return [];
      const repoPath = deps.storage.pathFor(scope.noteable.projectId);
      const { diffs } = await diffTreesForPaths(repoPath, position.base_sha, position.head_sha, unique([position.old_path, position.new_path]), TRACE_LIMITS);
      const file = diffs.find((candidate) => candidate.new_path === position.new_path) ?? diffs.find((candidate) => candidate.old_path === position.old_path);
      if (!file || file.too_large || file.binary) return [];
      return outdatedExcerpt(file.diff, positionFilePath(position), { oldLine: position.old_line ?? null, newLine: position.new_line ?? null });
    },
  };
}

export type OutdatedDiscussions = ReturnType<typeof createOutdatedDiscussions>;
