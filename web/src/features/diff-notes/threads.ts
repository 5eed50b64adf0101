/**
 * Which diff threads and drafts show where in the Changes tab: grouped by file (the position's
 * path), then by line (both line numbers), with file-wide and image ones apart. Only those on
 * the version shown (the position's head SHA) are placed on its lines. Pure.
 */
import type { DiscussionEntity } from '../notes';
import type { DraftNote } from '../review';
import { lineKey, positionPath, rangeLabel, type DiffPosition, type ImagePosition } from './position';

export interface Placed<T> {
  /** by lineKey of the position's (last) line */
  lines: Map<string, T[]>;
  file: T[];
  image: T[];
}

export interface DiffThreadIndex {
  threads: Map<string, Placed<DiscussionEntity>>;
  drafts: Map<string, Placed<DraftNote>>;
}

const isPosition = (value: unknown): value is DiffPosition => typeof value === 'object' && value !== null && 'position_type' in value;

export function discussionPosition(discussion: DiscussionEntity): DiffPosition | null {
  const position = (discussion.notes[0] as { position?: unknown } | undefined)?.position;
  return isPosition(position) ? position : null;
}

/**
 * The lines a multi-line thread covers, as GitLab's note header says them ('+3 to +5'), or
 * null for a thread on one line, a file or an image.
 */
export function threadLines(discussion: DiscussionEntity): string | null {
  const position = discussionPosition(discussion);
  return position && position.position_type === 'text' ? rangeLabel(position) : null;
}

function place<T>(index: Map<string, Placed<T>>, position: DiffPosition, item: T): void {
  const path = positionPath(position);
  let placed = index.get(path);
  if (!placed) {
    placed = { lines: new Map(), file: [], image: [] };
    index.set(path, placed);
  }
  if (position.position_type === 'file') placed.file.push(item);
  else if (position.position_type === 'image') placed.image.push(item);
  else {
    const key = lineKey(position);
    const list = placed.lines.get(key);
    if (list) list.push(item);
    else placed.lines.set(key, [item]);
  }
}

export function indexDiffThreads(discussions: readonly DiscussionEntity[], drafts: readonly DraftNote[], headSha: string | null): DiffThreadIndex {
  const threads = new Map<string, Placed<DiscussionEntity>>();
  for (const discussion of discussions) {
    const position = discussionPosition(discussion);
    // an outdated thread keeps its old version's position: never on the current lines
    if (position && position.head_sha === headSha && !isOutdated(discussion)) place(threads, position, discussion);
  }
  const draftIndex = new Map<string, Placed<DraftNote>>();
  for (const draft of drafts) {
    // a reply to a thread is drafted in that thread, not on a line of its own
    if (draft.discussion_id) continue;
    if (isPosition(draft.position) && draft.position.head_sha === headSha) place(draftIndex, draft.position, draft);
  }
  return { threads, drafts: draftIndex };
}

/** The pins of a file's image threads and drafts, numbered in order as GitLab numbers them. */
export function imagePins(threads: readonly DiscussionEntity[], drafts: readonly DraftNote[]): { key: string; number: number; position: ImagePosition; draft: boolean }[] {
  const pins: { key: string; number: number; position: ImagePosition; draft: boolean }[] = [];
  for (const thread of threads) {
    const position = discussionPosition(thread);
    if (position?.position_type === 'image') pins.push({ key: thread.id, number: pins.length + 1, position, draft: false });
  }
  for (const draft of drafts) {
    if (isPosition(draft.position) && draft.position.position_type === 'image') pins.push({ key: `draft-${draft.id}`, number: pins.length + 1, position: draft.position, draft: true });
  }
  return pins;
}

/**
 * Whether the server says the thread's line changed since it was written (GitLab marks this
 * with `outdated_line_change_path`, or a current position that no longer matches the original).
 */
export function isOutdated(discussion: DiscussionEntity): boolean {
  const note = discussion.notes[0] as { outdated?: unknown; outdated_line_change_path?: unknown; position?: unknown; original_position?: unknown } | undefined;
  if (!note) return false;
  if (note.outdated === true || (discussion as { outdated?: unknown }).outdated === true) return true;
  if (typeof note.outdated_line_change_path === 'string' && note.outdated_line_change_path !== '') return true;
  return false;
}
