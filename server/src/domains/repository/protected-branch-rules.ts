import { AccessLevel } from '@tributary/contracts';
/**
 * Pure rules for the protected branches API: which access grants a new
 * protection gets (GitLab's defaults: Maintainers push, merge and unprotect),
 * and how a PATCH with `allowed_to_*` items (`_destroy` included) changes the
 * grants of an existing one.
 */
import { ValidationError } from '../../platform/errors.js';
import type { AccessGrant } from '../protected-branches/protected-branches.repository.js';
import { PROTECTED_BRANCH_ACCESS_LEVELS, type AccessKind, type ProtectedBranch } from '../protected-branches/protected-branch.js';

export const ACCESS_KINDS: readonly AccessKind[] = ['push', 'merge', 'unprotect'];

/** GitLab's default role for every kind when none is given: Maintainers (40). */
export const DEFAULT_ACCESS_LEVEL: number = AccessLevel.Maintainer;

/** One `allowed_to_push[]` (merge, unprotect) item as sent. */
export interface AccessItemInput {
  id?: number;
  access_level?: number;
  user_id?: number;
  group_id?: number;
  deploy_key_id?: number;
  _destroy?: boolean;
}

export interface ProtectionInput {
  push_access_level?: number;
  merge_access_level?: number;
  unprotect_access_level?: number;
  allowed_to_push?: AccessItemInput[];
  allowed_to_merge?: AccessItemInput[];
  allowed_to_unprotect?: AccessItemInput[];
  allow_force_push?: boolean;
  code_owner_approval_required?: boolean;
}

const invalid = (field: string) => new ValidationError(`400 (Bad request) "${field}" does not have a valid value`);

export function assertAccessLevel(field: string, level: number): number {
  if (!(PROTECTED_BRANCH_ACCESS_LEVELS as readonly number[]).includes(level)) throw invalid(field);
  return level;
}

const levelField = (kind: AccessKind) => `${kind}_access_level` as const;
const itemsField = (kind: AccessKind) => `allowed_to_${kind}` as const;

/** A grant from one item: exactly one of access_level, user_id or group_id. */
export function grantFromItem(kind: AccessKind, item: AccessItemInput): AccessGrant {
  const field = itemsField(kind);
  if (item.deploy_key_id !== undefined) throw new ValidationError(`400 (Bad request) "${field}" deploy keys are not supported`);
  const given = [item.access_level, item.user_id, item.group_id].filter((value) => value !== undefined);
  if (given.length !== 1) throw new ValidationError(`400 (Bad request) "${field}" items need exactly one of access_level, user_id, group_id`);
  if (item.access_level !== undefined) return { kind, access_level: assertAccessLevel(field, item.access_level) };
  if (item.user_id !== undefined) return { kind, user_id: item.user_id };
  return { kind, group_id: item.group_id! };
}

/** Grants for a new protection: the role level (or Maintainers by default) plus each item. */
export function creationGrants(input: ProtectionInput): AccessGrant[] {
  const grants: AccessGrant[] = [];
  for (const kind of ACCESS_KINDS) {
    const level = input[levelField(kind)];
    const items = (input[itemsField(kind)] ?? []).filter((item) => !item._destroy);
    if (level !== undefined) grants.push({ kind, access_level: assertAccessLevel(levelField(kind), level) });
    else if (items.length === 0) grants.push({ kind, access_level: DEFAULT_ACCESS_LEVEL });
    for (const item of items) grants.push(grantFromItem(kind, item));
  }
  return grants;
}

export interface GrantChanges {
  /** `<kind>_access_level` given: the role grants of that kind are replaced by this one. */
  roleLevels: Array<{ kind: AccessKind; level: number }>;
  /** Grant ids to delete (`_destroy`, or an item with an id that is being changed). */
  deleteIds: number[];
  insert: AccessGrant[];
}

/** What a PATCH changes. Items naming an id must belong to this protection and kind. */
export function grantChanges(existing: ProtectedBranch, input: ProtectionInput): GrantChanges {
  const changes: GrantChanges = { roleLevels: [], deleteIds: [], insert: [] };
  for (const kind of ACCESS_KINDS) {
    const level = input[levelField(kind)];
    if (level !== undefined) changes.roleLevels.push({ kind, level: assertAccessLevel(levelField(kind), level) });
    for (const item of input[itemsField(kind)] ?? []) {
      if (item.id !== undefined) {
        if (!existing.rules.some((rule) => rule.id === item.id && rule.kind === kind)) throw invalid(`${itemsField(kind)}[id]`);
        changes.deleteIds.push(item.id);
        if (item._destroy) continue;
        changes.insert.push(grantFromItem(kind, item));
      } else if (!item._destroy) {
        changes.insert.push(grantFromItem(kind, item));
      }
    }
  }
  return changes;
}

/** GitLab's protected branch search: a case-insensitive substring of the name. */
export function matchesProtectionSearch(name: string, search: string | undefined): boolean {
  return !search || name.toLowerCase().includes(search.toLowerCase());
}

/** A protection name: wildcards allowed; NUL, line breaks and empty names are not. */
export function protectionNameProblem(name: string): string | null {
  if (name.trim() === '') return '400 (Bad request) "name" not given';
  if (/[\0\n\r]/.test(name) || Buffer.byteLength(name) > 255) return '400 (Bad request) "name" is invalid';
  return null;
}
