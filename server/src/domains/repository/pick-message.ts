import type { PickMode } from '../../git/three-way.js';

/**
 * GitLab's default messages (Commit#revert_message, Commit#cherry_pick_message) for a commit
 * the API names by sha. Pure.
 */
export function pickMessage(mode: PickMode, commit: { id: string; title: string; message: string }): string {
  if (mode === 'revert') return `Revert "${commit.title.trim()}"\n\nThis reverts commit ${commit.id}`;
  return `${commit.message.replace(/\s+$/, '')}\n\n(cherry picked from commit ${commit.id})`;
}
