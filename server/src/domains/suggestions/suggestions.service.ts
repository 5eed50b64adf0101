/**
 * Suggested changes (GitLab's Suggestion, Suggestions::ApplyService and SuggestionSet).
 *
 * Rows are written from a diff comment's ```suggestion fences in the transaction that creates
 * the note or edits its body (record); reads (forNotes) only read them. from_content is the
 * commented lines at the position's head commit, which never changes.
 *
 * Applying commits every chosen suggestion in one commit on the merge request's source branch,
 * as the caller, through CommitWriter.writeTree: the lines are checked against the branch tip
 * the writer read, the tree is built with plumbing (no work tree) and the branch moves by
 * compare-and-swap from that tip, so a concurrent push is refused, never overwritten.
 */
import { createHash } from 'node:crypto';
import { parseSuggestions, t } from '@tributary/contracts';
import type { Actor } from '../../auth/actor.js';
import { DomainError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import { writeActionsTree } from '../../git/plumbing-write.js';
import { branchRef } from '../../git/ref-names.js';
import { readRef } from '../../git/refs.js';
import { readBlobsAt } from '../../git/tree.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { NoteScope } from '../notes/note-access.js';
import type { Note } from '../notes/note.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import { checkBranchUpdate } from '../protected-branches/push-rules.js';
import type { CommitWriter } from '../repository/commit-writer.js';
import type { RepositoryAccess } from '../repository/repository-access.js';
import {
  applyToContent,
  inapplicableReason,
  linesBetween,
  rangesOverlap,
  suggestionCommitMessage,
  suggestionRange,
  SUGGESTION_MESSAGES,
  toContent,
  type LineRange,
} from './suggestion-rules.js';
import type { NewSuggestion, Suggestion, SuggestionContext, SuggestionsRepository } from './suggestions.repository.js';
import type { Queryable } from '../../platform/db/database.js';
import type { JobPayloadMap } from '../../platform/queue.js';

/** A suggestion as the entities show it. */
export interface SuggestionView extends Suggestion {
  from_line: number;
  to_line: number;
  appliable: boolean;
  /** why it cannot be applied (GitLab's web entity has it too); null when it can */
  inapplicable_reason: string | null;
  /** whether the reader may apply it (GitLab's web entity: current_user.can_apply) */
  can_apply: boolean;
}

/** Which note rows, if any, may carry suggestions: text comments on a new-side or unchanged line. */
function targetLine(note: Pick<Note, 'type' | 'system' | 'position'>): number | null {
  const position = note.position;
  if (note.type !== 'DiffNote' || note.system || !position || position.position_type !== 'text') return null;
  return typeof position.new_line === 'number' && position.new_line > 0 ? position.new_line : null;
}

const bodySha = (body: string) => createHash('sha256').update(body, 'utf8').digest('hex');

/** GitLab answers a missing suggestion with a sentence of its own, not `404 … Not Found`. */
class SuggestionNotFoundError extends DomainError {
  readonly status = 404;
}

/** Derives rows for diff notes written before suggestions were recorded with the note (after an upgrade). */
export const SUGGESTIONS_JOB = 'suggestions.catch_up' satisfies keyof JobPayloadMap;

export function createSuggestionsService(deps: {
  suggestions: SuggestionsRepository;
  mergeRequests: Pick<MergeRequestsService, 'open'>;
  projects: Pick<ProjectsService, 'find'>;
  access: Pick<RepositoryAccess, 'open' | 'openToWrite' | 'pusher'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  writer: Pick<CommitWriter, 'writeTree'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
}) {
  const { suggestions } = deps;

  /** The tip of the merge request's source branch, or null when it (or the source project) is gone. */
  async function sourceTip(mr: Pick<MergeRequest, 'source_project_id' | 'source_branch'>): Promise<string | null> {
    if (mr.source_project_id === null) return null;
    return (await readRef(deps.storage.pathFor(mr.source_project_id), branchRef(mr.source_branch)).catch(() => null))?.commit?.id ?? null;
  }

  /** The text of `paths` at `rev` (null for a path that is not a regular file there). */
  async function filesAt(repoPath: string, rev: string, paths: readonly string[]): Promise<Map<string, string | null>> {
    const blobs = await readBlobsAt(repoPath, rev, [...new Set(paths)]).catch(() => new Map());
    return new Map(paths.map((path) => {
      const blob = blobs.get(path);
      return [path, blob && blob.mode !== '120000' ? blob.content.toString('utf8') : null];
    }));
  }

  /** GitLab's apply_suggestion: the caller may push to the merge request's source branch. */
  async function pushRefusal(actor: Actor, sourceProject: Project, branch: string): Promise<string | null> {
    const [pusher, protections] = await Promise.all([deps.access.pusher(actor, sourceProject), deps.protectedBranches.listForProject(sourceProject.id)]);
    return checkBranchUpdate(pusher, { branch, creating: false, deleting: false, forced: false }, protections);
  }

  async function canApply(scope: NoteScope): Promise<boolean> {
    const mr = scope.mergeRequest;
    if (!scope.actor.user || mr.source_project_id === null || !scope.abilities.has('read_merge_request')) return false;
    try {
      const source = mr.source_project_id === scope.project.id ? scope.project : await deps.projects.find(scope.actor, mr.source_project_id);
      await deps.access.openToWrite(scope.actor, source.id, mr.source_branch);
      return (await pushRefusal(scope.actor, source, mr.source_branch)) === null;
    } catch {
      return false;
    }
  }

  /**
   * The rows of a note's current body: from_content is the commented lines at the position's
   * head commit, which never changes, so the same body always gives the same rows.
   */
  async function rowsOf(projectId: number, note: Pick<Note, 'type' | 'system' | 'position' | 'body'>): Promise<NewSuggestion[]> {
    const line = targetLine(note);
    const fences = line === null ? [] : parseSuggestions(note.body);
    if (fences.length === 0) return [];
    const position = note.position!;
    const content = (await filesAt(deps.storage.pathFor(projectId), position.head_sha, [position.new_path])).get(position.new_path) ?? '';
    return fences.map((fence, relativeOrder) => {
      const fromContent = linesBetween(content, suggestionRange(line!, fence.above, fence.below));
      return { relativeOrder, linesAbove: fence.above, linesBelow: fence.below, fromContent, toContent: toContent(fence.text, fromContent) };
    });
  }

  return {
    /**
     * Writes a note's rows for its current body, in the transaction that creates the diff note
     * or changes its body (GitLab's Notes::CreateService and UpdateService): rows of an older
     * body go. Only a text diff note on a new-side or unchanged line with a ```suggestion fence
     * reads git (one blob at the position's head commit, which never changes).
     */
    async record(projectId: number, note: Pick<Note, 'id' | 'type' | 'system' | 'position' | 'body'>, tx: Queryable): Promise<void> {
      if (targetLine(note) === null) return;
      const rows = await rowsOf(projectId, note);
      await suggestions.replaceForBody(note.id, bodySha(note.body), rows, tx);
    },

    /**
     * SUGGESTIONS_JOB, after an upgrade: rows for diff notes written before suggestions were
     * recorded with the note, which no read had derived yet. Idempotent.
     */
    async catchUp(): Promise<void> {
      for (const note of await suggestions.notesWithoutRows()) {
        if (!note.body.includes('suggestion')) continue;
        const rows = await rowsOf(note.project_id, note);
        if (rows.length > 0) await suggestions.replaceForBody(note.id, bodySha(note.body), rows);
      }
    },

    /**
     * The suggestions of these notes (all of one merge request the caller reads), by note id,
     * with whether each can be applied now and by the caller. Reads only: the rows were written
     * with the note.
     */
    async forNotes(scope: NoteScope, notes: readonly Note[]): Promise<Map<number, SuggestionView[]>> {
      const candidates = notes.filter((note) => targetLine(note) !== null && note.body.includes('suggestion'));
      const result = new Map<number, SuggestionView[]>();
      if (candidates.length === 0) return result;
      const ids = candidates.map((note) => note.id);
      let rows = await suggestions.forNotes(ids);
      const current = new Map(candidates.map((note) => [note.id, note]));
      rows = rows.filter((row) => row.note_body_sha === bodySha(current.get(row.note_id)!.body));
      if (rows.length === 0) return result;

      const mr = scope.mergeRequest;
      const paths = candidates.map((note) => note.position!.new_path);
      const [tip, allowed] = await Promise.all([sourceTip(mr), canApply(scope)]);
      const files = tip && mr.source_project_id !== null ? await filesAt(deps.storage.pathFor(mr.source_project_id), tip, paths) : new Map<string, string | null>();
      for (const row of rows) {
        const note = current.get(row.note_id)!;
        const range = suggestionRange(targetLine(note)!, row.lines_above, row.lines_below);
        const file = files.get(note.position!.new_path);
        const reason = inapplicableReason({
          applied: row.applied,
          mergeRequestState: mr.state,
          sourceBranchExists: tip !== null,
          linesAbove: row.lines_above,
          linesBelow: row.lines_below,
          fromContent: row.from_content,
          toContent: row.to_content,
          currentContent: file === undefined || file === null ? null : linesBetween(file, range),
          filePath: note.position!.new_path,
        });
        const view: SuggestionView = { ...row, from_line: range.from, to_line: range.to, appliable: reason === null, inapplicable_reason: reason === null ? null : t(reason), can_apply: allowed };
        result.set(row.note_id, [...(result.get(row.note_id) ?? []), view]);
      }
      return result;
    },

    /**
     * PUT /suggestions/:id/apply and /suggestions/batch_apply: one commit for all of `ids` on
     * their merge request's source branch. Returns the applied suggestions.
     */
    async apply(actor: Actor, ids: readonly number[], options: { commitMessage?: string; batch: boolean }): Promise<SuggestionView[]> {
      const user = actor.user;
      if (!user) throw new UnauthorizedError();
      const notFound = () => new SuggestionNotFoundError(t(options.batch ? SUGGESTION_MESSAGES.notFoundBatch : SUGGESTION_MESSAGES.notFound));
      const valid = ids.every((id) => Number.isSafeInteger(id) && id > 0);
      const rows = valid ? await suggestions.findWithContext(ids) : [];
      if (rows.length !== ids.length || rows.length === 0) throw notFound();

      // Seen first: a suggestion on a merge request (or an internal note) the caller may not
      // read answers exactly like one that does not exist.
      const opened = new Map<number, Awaited<ReturnType<MergeRequestsService['open']>>>();
      for (const row of rows) {
        if (opened.has(row.merge_request_id)) continue;
        try {
          opened.set(row.merge_request_id, await deps.mergeRequests.open(actor, row.target_project_id, row.merge_request_iid));
        } catch (error) {
          if (error instanceof NotFoundError) throw notFound();
          throw error;
        }
      }
      for (const row of rows) {
        if (row.note_internal && !opened.get(row.merge_request_id)!.abilities.has('read_internal_note')) throw notFound();
      }

      // Then allowed: the caller must be able to push to every source branch (GitLab's apply_suggestion).
      const first = rows[0]!;
      for (const row of rows) {
        if (row.source_project_id === null) throw new ForbiddenError();
        let refusal: string | null;
        try {
          const handle = await deps.access.openToWrite(actor, row.source_project_id, row.source_branch);
          refusal = await pushRefusal(actor, handle.project, row.source_branch);
        } catch (error) {
          if (error instanceof NotFoundError) throw new ForbiddenError();
          throw error;
        }
        if (refusal !== null) throw new ForbiddenError();
      }
      if (rows.some((row) => row.source_project_id !== first.source_project_id || row.source_branch !== first.source_branch)) {
        throw new ValidationError(t(SUGGESTION_MESSAGES.differentBranches));
      }

      const handle = await deps.access.openToWrite(actor, first.source_project_id!, first.source_branch);
      const paths = [...new Set(rows.map((row) => row.note_position!.new_path))];

      /** SuggestionSet#error_message against `tip` (null: the branch is gone); throws the first reason. */
      const check = async (tip: string | null): Promise<Map<string, string | null>> => {
        const files = tip ? await filesAt(handle.repoPath, tip, paths) : new Map<string, string | null>();
        for (const row of rows) {
          const path = row.note_position!.new_path;
          if (tip && files.get(path) === null) throw new ValidationError(t(SUGGESTION_MESSAGES.fileNotFound));
          const file = files.get(path);
          const reason = inapplicableReason({
            applied: row.applied,
            mergeRequestState: row.merge_request_state,
            sourceBranchExists: tip !== null,
            linesAbove: row.lines_above,
            linesBelow: row.lines_below,
            fromContent: row.from_content,
            toContent: row.to_content,
            // a thread whose line left the new side names no lines any more: outdated
            currentContent: file === undefined || file === null || typeof row.note_position!.new_line !== 'number' ? null : linesBetween(file, rangeOf(row)),
            filePath: path,
          });
          if (reason) throw new ValidationError(t(reason));
        }
        for (const path of paths) {
          if (rangesOverlap(rows.filter((row) => row.note_position!.new_path === path).map(rangeOf))) throw new ValidationError(t(SUGGESTION_MESSAGES.overlap));
        }
        return files;
      };
      // Refuse before writing anything when the branch is gone (the writer would say 404 Branch).
      await check(await sourceTip({ source_project_id: first.source_project_id, source_branch: first.source_branch }));

      const message = suggestionCommitMessage(options.commitMessage, {
        branchName: first.source_branch,
        filePaths: paths,
        projectName: handle.project.name,
        projectPath: handle.project.path,
        userFullName: user.name,
        username: user.username,
        suggestionsCount: rows.length,
        coAuthors: [...new Map(rows.filter((row) => row.note_author_id !== user.id && row.author_email).map((row) => [row.note_author_id!, { name: row.author_name!, email: row.author_email! }])).values()],
      });
      // The caller is the commit's author and committer; the suggestions' other authors are
      // credited once each by the message's Co-authored-by trailers (GitLab).
      const sha = await deps.writer.writeTree(actor, handle, {
        branch: first.source_branch,
        message,
        plan: async (tip) => {
          const files = await check(tip);
          const actions = paths.map((path) => {
            const changes = rows.filter((row) => row.note_position!.new_path === path).map((row) => ({ ...rangeOf(row), toContent: row.to_content }));
            return { action: 'update' as const, file_path: path, content: Buffer.from(applyToContent(files.get(path)!, changes), 'utf8') };
          });
          return writeActionsTree(handle.repoPath, tip, actions);
        },
      });
      await suggestions.markApplied(
        rows.map((row) => row.id),
        sha!,
      );
      return rows.map((row) => {
        const range = rangeOf(row);
        return { ...row, applied: true, commit_id: sha, from_line: range.from, to_line: range.to, appliable: false, inapplicable_reason: t(SUGGESTION_MESSAGES.applied), can_apply: true };
      });
    },
  };
}

function rangeOf(row: SuggestionContext): LineRange {
  return suggestionRange(row.note_position!.new_line!, row.lines_above, row.lines_below);
}

export type SuggestionsService = ReturnType<typeof createSuggestionsService>;
