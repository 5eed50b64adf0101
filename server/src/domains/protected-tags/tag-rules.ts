import { AccessLevel } from '@tributary/contracts';
import { matchesBranchPattern } from '../protected-branches/branch-pattern.js';
import { isAllowed, type PusherFacts } from '../protected-branches/push-rules.js';
import type { ProtectedTag } from './protected-tag.js';

/** GitLab's Gitlab::Checks::TagCheck messages for protected tags. */
export const TAG_PUSH_MESSAGES = {
  updateProtected: 'Protected tags cannot be updated.',
  deleteProtected: 'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
  deleteProtectedNonWeb: 'You can only delete protected tags using the web interface.',
  createProtected: 'You are not allowed to create this tag as it is protected.',
} as const;

export interface TagUpdateFacts {
  /** tag name (without refs/tags/) */
  tag: string;
  creating: boolean;
  deleting: boolean;
  /** 'web' for the API and web app (GitLab's updated_from_web?), 'git' for `git push` */
  via: 'git' | 'web';
}

/** Protections whose name or `*` pattern matches the tag (the same linear glob as protected branches). */
export function tagProtectionsFor(tag: string, all: readonly ProtectedTag[]): ProtectedTag[] {
  return all.filter((protection) => matchesBranchPattern(protection.name, tag));
}

/** May the user create this tag? Unprotected tags: yes; protected: a matching rule must allow them (the most permissive wins). */
export function canCreateTag(pusher: PusherFacts, tag: string, protections: readonly ProtectedTag[]): boolean {
  const matching = tagProtectionsFor(tag, protections);
  return matching.length === 0 || isAllowed('create', pusher, matching);
}

/**
 * GitLab's protected tag check for one tag update (create, move or delete), pure:
 * a protected tag is never moved; it is deleted only by a Maintainer (or Owner,
 * or an administrator) through the web interface or API, never by `git push`;
 * and creating or deleting it needs a matching "Allowed to create" rule.
 * Returns the refusal message, or null when it is allowed.
 */
export function checkTagUpdate(pusher: PusherFacts, update: TagUpdateFacts, protections: readonly ProtectedTag[]): string | null {
  const matching = tagProtectionsFor(update.tag, protections);
  if (matching.length === 0) return null;
  if (!update.creating && !update.deleting) return TAG_PUSH_MESSAGES.updateProtected;
  if (update.deleting) {
    if (!pusher.isAdmin && pusher.accessLevel < AccessLevel.Maintainer) return TAG_PUSH_MESSAGES.deleteProtected;
    if (update.via !== 'web') return TAG_PUSH_MESSAGES.deleteProtectedNonWeb;
  }
  return isAllowed('create', pusher, matching) ? null : TAG_PUSH_MESSAGES.createProtected;
}
