/**
 * Jump to the next or previous unresolved thread, pure: which threads count,
 * and which one a jump lands on, in the order the list shows them.
 */
import type { DiscussionEntity } from './types';

/** Jumping to the next or previous discussion is debounced at 200 ms. */
export const DISCUSSION_JUMP_DEBOUNCE_MS = 200;

/** A thread is unresolved when it has resolvable notes and not all of them are resolved. */
export function isUnresolved(discussion: Pick<DiscussionEntity, 'notes'>): boolean {
  const resolvable = discussion.notes.filter((note) => note.resolvable && !note.system);
  return resolvable.length > 0 && resolvable.some((note) => !note.resolved);
}

export const unresolvedIds = (discussions: readonly DiscussionEntity[]) => discussions.filter(isUnresolved).map((discussion) => discussion.id);

/**
 * The thread a jump lands on. `ordered` is the unresolved threads in the list's order;
 * `current` the thread jumped to last (null before the first jump, or when it has since
 * been resolved: then the jump starts from its old place in `all`). Wraps around at the ends.
 */
export function jumpTarget(ordered: readonly string[], all: readonly string[], current: string | null, direction: 'next' | 'previous'): string | null {
  if (ordered.length === 0) return null;
  const first = direction === 'next' ? ordered[0]! : ordered[ordered.length - 1]!;
  if (current === null) return first;
  const here = ordered.indexOf(current);
  if (here >= 0) {
    const step = direction === 'next' ? 1 : -1;
    return ordered[(here + step + ordered.length) % ordered.length]!;
  }
  // the current thread is resolved now: continue from where it stands in the whole list
  const position = all.indexOf(current);
  if (position < 0) return first;
  const rank = (id: string) => all.indexOf(id);
  const found = direction === 'next' ? ordered.find((id) => rank(id) > position) : [...ordered].reverse().find((id) => rank(id) < position);
  return found ?? first;
}
