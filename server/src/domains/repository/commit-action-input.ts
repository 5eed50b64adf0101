/**
 * The `actions[]` of POST /projects/:id/repository/commits, checked as GitLab's
 * API checks them (lib/api/commits.rb `validate_commits_attrs!`), with its
 * messages, before anything touches git. Pure.
 */
import { ValidationError } from '../../platform/errors.js';
import type { CommitAction, CommitActionKind } from '../../git/commit-actions.js';
import { decodeContent } from './file-rules.js';

export const ACTION_KINDS: readonly CommitActionKind[] = ['create', 'update', 'move', 'delete', 'chmod'];

/** At most this many actions in one commit (a request is limited by the body size anyway). */
export const MAX_COMMIT_ACTIONS = 1000;

const badRequest = (reason: string) => new ValidationError(`400 Bad request - ${reason}`);

export interface ParsedActions {
  actions: CommitAction[];
  /** `last_commit_id` per action: the path it guards. */
  expectations: Array<{ path: string; lastCommitId: string }>;
}

/** GitLab's message when an action's file changed since the caller read it (Files::MultiService). */
export const FILE_CHANGED_IN_COMMIT = 'The file has changed since you started editing it: %{path}';

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function boolean(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/** Accepts an array, an index-keyed object (`actions[0][action]=…`) or a JSON string (multipart). */
function actionList(raw: unknown): unknown[] {
  if (typeof raw === 'string') {
    try {
      return actionList(JSON.parse(raw));
    } catch {
      throw badRequest('actions is invalid');
    }
  }
  if (Array.isArray(raw)) return raw;
  if (raw && typeof raw === 'object') return Object.values(raw);
  return [];
}

export function parseCommitActions(raw: unknown): ParsedActions {
  const list = actionList(raw).filter((item) => item !== undefined);
  if (list.length === 0) throw badRequest('actions is required');
  if (list.length > MAX_COMMIT_ACTIONS) throw badRequest(`actions may hold at most ${MAX_COMMIT_ACTIONS} items`);
  const parsed: ParsedActions = { actions: [], expectations: [] };
  list.forEach((item, index) => {
    const field = (name: string) => `actions[${index}][${name}]`;
    const entry = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const action = text(entry.action);
    const filePath = text(entry.file_path);
    if (!action) throw badRequest(`${field('action')} is required`);
    if (!filePath) throw badRequest(`${field('file_path')} is required`);
    if (!ACTION_KINDS.includes(action as CommitActionKind)) throw badRequest(`${field('action')} must be one of: ${ACTION_KINDS.join(', ')}`);
    const encoding = entry.encoding === undefined || entry.encoding === null ? 'text' : text(entry.encoding);
    if (encoding !== 'text' && encoding !== 'base64') throw badRequest(`${field('encoding')} must be text or base64`);
    const content = text(entry.content);
    if (entry.content !== undefined && entry.content !== null && content === undefined) throw badRequest(`${field('content')} is invalid`);
    const previousPath = text(entry.previous_path);
    let executeFilemode: boolean | undefined;
    if (entry.execute_filemode !== undefined && entry.execute_filemode !== null) {
      executeFilemode = boolean(entry.execute_filemode);
      if (executeFilemode === undefined) throw badRequest(`${field('execute_filemode')} must be a boolean`);
    }
    if (action === 'update' && content === undefined) throw badRequest(`${field('content')} is required for update action`);
    if (action === 'move' && !previousPath) throw badRequest(`${field('previous_path')} is required for move action`);
    if (action === 'chmod' && executeFilemode === undefined) throw badRequest(`${field('execute_filemode')} is required for chmod action`);

    parsed.actions.push({
      action: action as CommitActionKind,
      file_path: filePath,
      previous_path: action === 'move' ? previousPath : undefined,
      content: content === undefined ? undefined : decodeContent(content, encoding, field('content')),
      execute_filemode: executeFilemode,
    });
    const lastCommitId = text(entry.last_commit_id);
    if (lastCommitId && action !== 'create') parsed.expectations.push({ path: action === 'move' ? previousPath! : filePath, lastCommitId });
  });
  return parsed;
}
