/**
 * GitLab's global ids (`gid://gitlab/MergeRequest/42`): every GraphQL `id` field and every
 * `…ID` argument uses them, so GitLab clients can pass ids between calls unchanged. Pure.
 */
export type GlobalIdType = 'MergeRequest' | 'Project' | 'User';

const PATTERN = /^gid:\/\/gitlab\/([A-Za-z:]+)\/(\d{1,18})$/;

export function globalId(type: GlobalIdType, id: number | string): string {
  return `gid://gitlab/${type}/${id}`;
}

/** The numeric id of a global id of one of `types`, or null for anything else (never throws). */
export function parseGlobalId(value: unknown, types: readonly GlobalIdType[]): { type: GlobalIdType; id: number } | null {
  if (typeof value !== 'string') return null;
  const match = PATTERN.exec(value);
  if (!match || !types.includes(match[1] as GlobalIdType)) return null;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) && id > 0 ? { type: match[1] as GlobalIdType, id } : null;
}
