import { AccessLevel } from '@tributary/contracts';
import { validateBranchName, validateTagName } from '../../git/ref-names.js';
import { checkBranchUpdate, PUSH_MESSAGES, type PusherFacts } from '../protected-branches/push-rules.js';
import type { ProtectedBranch } from '../protected-branches/protected-branch.js';
import type { ProtectedTag } from '../protected-tags/protected-tag.js';
import { checkTagUpdate } from '../protected-tags/tag-rules.js';
import { classifyRef, isCreation, isDeletion, type RefUpdate } from './push.js';

export const REF_MESSAGES = {
  otherRef: 'You are not allowed to push to this ref. Only branches and tags can be pushed.',
} as const;

/**
 * Pure decision for a whole push: the first refused update refuses all
 * (git runs pre-receive once for every ref, and an atomic answer keeps a
 * push from landing half-way). Returns the message to show, or null.
 * `via` is 'web' for the API and web app, which may delete protected tags.
 */
export function checkPush(
  pusher: PusherFacts,
  updates: RefUpdate[],
  protections: ProtectedBranch[],
  tagProtections: readonly ProtectedTag[] = [],
  via: 'git' | 'web' = 'git',
): string | null {
  // Collaboration through a merge request grants branch updates only (checkBranchUpdate decides which).
  const member = pusher.isAdmin || pusher.accessLevel >= AccessLevel.Developer;
  if (!member && (pusher.collaborationBranches ?? []).length === 0) return PUSH_MESSAGES.notAllowed;
  for (const update of updates) {
    const ref = classifyRef(update.ref);
    const creating = isCreation(update);
    if (ref.kind === 'other') return REF_MESSAGES.otherRef;
    if (ref.kind === 'tag') {
      if (!member) return PUSH_MESSAGES.notAllowed;
      const problem = creating ? validateTagName(ref.name) : null;
      if (problem) return `${problem}: ${ref.name}`;
      const refusal = checkTagUpdate(pusher, { tag: ref.name, creating, deleting: isDeletion(update), via }, tagProtections);
      if (refusal) return refusal;
      continue;
    }
    if (creating) {
      const problem = validateBranchName(ref.name);
      if (problem) return `${problem}: ${ref.name}`;
    }
    const refusal = checkBranchUpdate(pusher, { branch: ref.name, creating, deleting: isDeletion(update), forced: update.forced === true }, protections);
    if (refusal) return refusal;
  }
  return null;
}
