/**
 * GitLab's owner checks of a CODEOWNERS file (its file view lists them beside the syntax
 * errors), run only on a file without syntax errors, as GitLab does:
 *
 * - `inaccessible_owner`: a line names a user who is not a member of the project (or no user at
 *   all), an email of no member, or a group the project cannot reach (not the project's group or
 *   one of its ancestors; Tributary has no sharing of projects with other groups);
 * - `group_without_eligible_approvers`: a line names a reachable group none of whose direct
 *   members may approve (at least Developer in the project);
 * - `owner_without_permission`: a line names a member below Developer (who cannot approve).
 *
 * Roles (`@@developer`) are not checked. A line gets one error, the first that applies in this
 * order. Pure: the facts about names, emails and groups come in.
 */
import type { CodeOwnersLine } from './codeowners-file.js';

export type OwnerCheckKind = 'inaccessible_owner' | 'group_without_eligible_approvers' | 'owner_without_permission';

export interface OwnerCheckError {
  kind: OwnerCheckKind;
  line: number;
}

/** What the database says about the references (keys lower case). */
export interface OwnerFacts {
  /** a user's effective access level in the project (0 for a non-member), by username */
  userLevelByName: ReadonlyMap<string, number>;
  /** the same, by email */
  userLevelByEmail: ReadonlyMap<string, number>;
  /** groups by full path: reachable from the project, and with a member who may approve */
  groupByPath: ReadonlyMap<string, { reachable: boolean; hasEligibleMember: boolean }>;
  /** the least access level that may approve (Developer) */
  approverLevel: number;
}

/** The names and emails the lines refer to (lower case), for the one query per kind. */
export function ownerReferences(lines: readonly CodeOwnersLine[]): { names: string[]; emails: string[] } {
  const names = new Set<string>();
  const emails = new Set<string>();
  for (const { owners } of lines) {
    for (const owner of owners) {
      if (owner.kind === 'name') names.add(owner.name.toLowerCase());
      else if (owner.kind === 'email') emails.add(owner.email.toLowerCase());
    }
  }
  return { names: [...names], emails: [...emails] };
}

export function checkOwners(lines: readonly CodeOwnersLine[], facts: OwnerFacts): OwnerCheckError[] {
  const errors: OwnerCheckError[] = [];
  for (const { line, owners } of lines) {
    let inaccessible = false;
    let groupWithoutApprovers = false;
    let withoutPermission = false;
    for (const owner of owners) {
      if (owner.kind === 'role') continue;
      if (owner.kind === 'email') {
        const level = facts.userLevelByEmail.get(owner.email.toLowerCase()) ?? 0;
        if (level === 0) inaccessible = true;
        else if (level < facts.approverLevel) withoutPermission = true;
        continue;
      }
      const name = owner.name.toLowerCase();
      // as GitLab resolves a name: a user by username, else a group by its full path
      const level = facts.userLevelByName.get(name);
      if (level !== undefined && level > 0) {
        if (level < facts.approverLevel) withoutPermission = true;
        continue;
      }
      const group = facts.groupByPath.get(name);
      if (level === undefined && group?.reachable) {
        if (!group.hasEligibleMember) groupWithoutApprovers = true;
        continue;
      }
      inaccessible = true;
    }
    if (inaccessible) errors.push({ kind: 'inaccessible_owner', line });
    else if (groupWithoutApprovers) errors.push({ kind: 'group_without_eligible_approvers', line });
    else if (withoutPermission) errors.push({ kind: 'owner_without_permission', line });
  }
  return errors;
}
