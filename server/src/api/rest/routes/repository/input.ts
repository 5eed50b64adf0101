/**
 * Parameter helpers the repository routes share (beside api/rest/params.ts):
 * dates, access level items, and GitLab's keyset pagination of the tree.
 */
import { ValidationError } from '../../../../platform/errors.js';
import type { AccessItemInput, ProtectionInput } from '../../../../domains/repository/protected-branch-rules.js';
import { optionalBool, optionalInt, type Params } from '../../params.js';

/** An ISO 8601 date (Grape's DateTime); 400 when it does not parse. */
export function optionalDate(params: Params, key: string): Date | undefined {
  const value = params[key];
  if (value === undefined || value === null || value === '') return undefined;
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) throw new ValidationError(`400 (Bad request) "${key}" is invalid`);
  return date;
}

function itemNumber(item: Record<string, unknown>, key: string, field: string): number | undefined {
  const value = item[key];
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number)) throw new ValidationError(`400 (Bad request) "${field}[${key}]" is invalid`);
  return number;
}

/** `allowed_to_push[][user_id]=…`, `allowed_to_push[0][access_level]=…` or a JSON array of objects. */
export function accessItems(params: Params, field: string): AccessItemInput[] | undefined {
  const raw = params[field];
  if (raw === undefined || raw === null) return undefined;
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw) : null;
  if (!list) throw new ValidationError(`400 (Bad request) "${field}" is invalid`);
  return list.map((entry) => {
    if (!entry || typeof entry !== 'object') throw new ValidationError(`400 (Bad request) "${field}" is invalid`);
    const item = entry as Record<string, unknown>;
    const destroy = optionalBool(item, '_destroy');
    return {
      id: itemNumber(item, 'id', field),
      access_level: itemNumber(item, 'access_level', field),
      user_id: itemNumber(item, 'user_id', field),
      group_id: itemNumber(item, 'group_id', field),
      deploy_key_id: itemNumber(item, 'deploy_key_id', field),
      _destroy: destroy,
    };
  });
}

export function protectionInput(params: Params): ProtectionInput {
  return {
    push_access_level: optionalInt(params, 'push_access_level'),
    merge_access_level: optionalInt(params, 'merge_access_level'),
    unprotect_access_level: optionalInt(params, 'unprotect_access_level'),
    allowed_to_push: accessItems(params, 'allowed_to_push'),
    allowed_to_merge: accessItems(params, 'allowed_to_merge'),
    allowed_to_unprotect: accessItems(params, 'allowed_to_unprotect'),
    allow_force_push: optionalBool(params, 'allow_force_push'),
    code_owner_approval_required: optionalBool(params, 'code_owner_approval_required'),
  };
}

/**
 * GitLab's keyset pagination of the repository tree: `page_token` is the path of
 * the last entry already seen; the next link carries the last path of this page.
 * Pure.
 */
export function keysetTreePage<T extends { path: string }>(entries: readonly T[], pageToken: string | undefined, perPage: number) {
  const start = pageToken === undefined ? 0 : entries.findIndex((entry) => entry.path === pageToken) + 1;
  // An unknown token starts nowhere: findIndex gives -1, so start would be 0; GitLab answers an empty page.
  if (pageToken !== undefined && start === 0) return { items: [] as T[], nextToken: null };
  const items = entries.slice(start, start + perPage);
  const nextToken = start + perPage < entries.length && items.length > 0 ? items[items.length - 1]!.path : null;
  return { items, nextToken };
}

export function keysetLink(url: URL, perPage: number, nextToken: string): string {
  const next = new URL(url);
  next.searchParams.delete('page');
  next.searchParams.set('pagination', 'keyset');
  next.searchParams.set('per_page', String(perPage));
  next.searchParams.set('page_token', nextToken);
  return `<${next.toString()}>; rel="next"`;
}
