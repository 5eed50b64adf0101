/**
 * GitLab's commit actions (create, update, delete, move, chmod) checked against the start
 * tree and turned into index updates. Pure: git work happens in plumbing-write.ts.
 *
 * Actions apply in order, each seeing the ones before it (create then update of one file in
 * a single commit works). Writes never follow symlinks: updating a symlink path stores a
 * regular file there (Gogs CVE-2025-8110 wrote through a committed symlink).
 */
import { t } from '@tributary/contracts';
import { CommitActionError, InvalidTreePathError } from './errors.js';
import { parentPaths, writablePathProblem } from './tree-paths.js';

export type CommitActionKind = 'create' | 'update' | 'delete' | 'move' | 'chmod';

export interface CommitAction {
  action: CommitActionKind;
  file_path: string;
  /** For move: the path the file moves from. */
  previous_path?: string;
  /** For create and update (and optionally move). Empty when absent. */
  content?: Buffer;
  execute_filemode?: boolean;
}

/** What the start tree holds at a path (from ls-tree). */
export interface ExistingEntry {
  mode: string;
  id: string;
  type: 'blob' | 'tree' | 'commit';
}

/** One line of `update-index --index-info`: a blob (by id or by new content) at a path, or a removal. */
export type IndexUpdate =
  | { path: string; mode: string; id: string }
  | { path: string; mode: string; content: Buffer }
  | { path: string; remove: true };

const REGULAR = '100644';
const EXECUTABLE = '100755';
const FILE_MODES = new Set([REGULAR, EXECUTABLE, '120000']);

/** A blob already in the repository, or content still to be hashed. */
type Blob = { id: string } | { content: Buffer };
type State = { kind: 'file'; mode: string; blob: Blob } | { kind: 'dir' } | { kind: 'absent' } | { kind: 'other' };

/** Every path whose current state the actions depend on: the paths, their sources and parents. */
export function pathsToInspect(actions: readonly CommitAction[]): string[] {
  const paths = new Set<string>();
  for (const action of actions) {
    for (const path of [action.file_path, action.previous_path]) {
      if (path === undefined || writablePathProblem(path)) continue;
      paths.add(path);
      for (const parent of parentPaths(path)) paths.add(parent);
    }
  }
  return [...paths];
}

function validPath(path: string | undefined): string {
  const problem = writablePathProblem(path ?? '');
  if (problem) throw new InvalidTreePathError(problem === 'Path is empty' ? t('You must provide a file path') : problem, path ?? '');
  return path!;
}

/** Checks the actions against `existing` and returns the index updates in order. */
export function planCommitActions(actions: readonly CommitAction[], existing: ReadonlyMap<string, ExistingEntry>): IndexUpdate[] {
  const states = new Map<string, State>();
  const stateOf = (path: string): State => {
    const known = states.get(path);
    if (known) return known;
    const entry = existing.get(path);
    if (!entry) return { kind: 'absent' };
    if (entry.type === 'tree') return { kind: 'dir' };
    return FILE_MODES.has(entry.mode) ? { kind: 'file', mode: entry.mode, blob: { id: entry.id } } : { kind: 'other' };
  };
  const fileAt = (path: string) => {
    const state = stateOf(path);
    if (state.kind !== 'file') throw new CommitActionError(t("A file with this name doesn't exist"), path);
    return state;
  };
  const assertFree = (path: string) => {
    const state = stateOf(path);
    if (state.kind === 'dir') throw new CommitActionError(t('A directory with this name already exists'), path);
    if (state.kind !== 'absent') throw new CommitActionError(t('A file with this name already exists'), path);
    for (const parent of parentPaths(path)) {
      const kind = stateOf(parent).kind;
      if (kind === 'file' || kind === 'other') throw new CommitActionError(t('A file with this name already exists'), parent);
    }
  };
  const put = (path: string, mode: string, blob: Blob) => {
    states.set(path, { kind: 'file', mode, blob });
    for (const parent of parentPaths(path)) states.set(parent, { kind: 'dir' });
    updates.push({ path, mode, ...blob });
  };
  const remove = (path: string) => {
    states.set(path, { kind: 'absent' });
    updates.push({ path, remove: true });
  };
  const modeFor = (requested: boolean | undefined, current: string | undefined) =>
    requested === undefined ? (current === EXECUTABLE ? EXECUTABLE : REGULAR) : requested ? EXECUTABLE : REGULAR;

  const updates: IndexUpdate[] = [];
  for (const action of actions) {
    const path = validPath(action.file_path);
    switch (action.action) {
      case 'create':
        assertFree(path);
        put(path, modeFor(action.execute_filemode, undefined), { content: action.content ?? Buffer.alloc(0) });
        break;
      case 'update':
        put(path, modeFor(action.execute_filemode, fileAt(path).mode), { content: action.content ?? Buffer.alloc(0) });
        break;
      case 'delete':
        if (stateOf(path).kind !== 'other') fileAt(path);
        remove(path);
        break;
      case 'chmod': {
        const file = fileAt(path);
        if (file.mode === '120000') throw new CommitActionError(t("A file with this name doesn't exist"), path);
        put(path, modeFor(action.execute_filemode ?? false, file.mode), file.blob);
        break;
      }
      case 'move': {
        const from = validPath(action.previous_path);
        const source = fileAt(from);
        remove(from);
        assertFree(path);
        // New content makes a regular file, even where a symlink moved from.
        const keepMode = action.content === undefined && action.execute_filemode === undefined;
        put(path, keepMode ? source.mode : modeFor(action.execute_filemode, source.mode), action.content === undefined ? source.blob : { content: action.content });
        break;
      }
      default:
        throw new CommitActionError(t('Unknown action'), path);
    }
  }
  return updates;
}

/** `update-index -z --index-info` input; `blobIds` holds the ids of new contents, in order. */
export function indexInfo(updates: readonly IndexUpdate[], blobIds: readonly string[], zeroId: string): Buffer {
  let next = 0;
  const lines = updates.map((update) => {
    if ('remove' in update) return `0 ${zeroId}\t${update.path}\0`;
    const id = 'content' in update ? blobIds[next++] : update.id;
    if (!id) throw new Error('missing blob id for new content');
    return `${update.mode} ${id}\t${update.path}\0`;
  });
  return Buffer.from(lines.join(''), 'utf8');
}
