/**
 * Validation of ref names, pure. Two levels:
 * - `refFormatProblem`: what `git check-ref-format` refuses (man git-check-ref-format), used
 *   for any full ref we hand to git, including odd names that arrived by push (`refs/heads/-h`);
 * - `validateBranchName` / `validateTagName`: names users choose through the API or web app,
 *   with Tributary's stricter rules on top (no leading `-`, no 40/64-hex names that could pass
 *   for a commit SHA (GitLab CVE-2022-2417), not `HEAD`, not `refs/…`).
 */
import { t } from '@tributary/contracts';

/** NAME_MAX of common file systems: a longer component cannot be stored as a loose ref. */
const MAX_COMPONENT_BYTES = 255;
const MAX_REF_BYTES = 1024;

// git check-ref-format refuses control characters: matching them is the point.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTER = /[\x00-\x20\x7f~^:?*[\\]/;
const SHA_LIKE = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;

/** Why git would refuse `name` as a ref name (no `refs/` prefix is required), or null. */
export function refFormatProblem(name: string): string | null {
  if (name.length === 0) return 'is empty';
  if (Buffer.byteLength(name) > MAX_REF_BYTES) return 'is too long';
  if (FORBIDDEN_CHARACTER.test(name)) return 'contains a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'contains ".."';
  if (name.includes('@{')) return 'contains "@{"';
  if (name === '@') return 'is "@"';
  if (name.startsWith('/') || name.endsWith('/')) return 'begins or ends with "/"';
  if (name.endsWith('.')) return 'ends with "."';
  for (const component of name.split('/')) {
    if (component.length === 0) return 'contains "//"';
    if (component.startsWith('.')) return 'has a part beginning with "."';
    if (component.endsWith('.lock')) return 'has a part ending with ".lock"';
    if (Buffer.byteLength(component) > MAX_COMPONENT_BYTES) return 'has a part longer than 255 bytes';
  }
  return null;
}

/** A full ref git accepts (`refs/heads/x`, `refs/merge-requests/1/head`); leading `-` components allowed. */
export function isValidFullRefName(ref: string): boolean {
  return ref.startsWith('refs/') && ref.split('/').length >= 3 && refFormatProblem(ref) === null;
}

/** Why Tributary refuses `name` as a new branch or tag name, or null. */
export function userRefNameProblem(name: string): string | null {
  if (name.startsWith('-')) return 'begins with "-"';
  if (name === 'HEAD') return 'is "HEAD"';
  if (name.startsWith('refs/')) return 'begins with "refs/"';
  if (SHA_LIKE.test(name)) return 'looks like a commit SHA';
  return refFormatProblem(name);
}

/** GitLab's message for a refused branch name, or null when `name` is acceptable. */
export function validateBranchName(name: string): string | null {
  return userRefNameProblem(name) === null ? null : t('Branch name is invalid');
}

/** GitLab's message for a refused tag name, or null when `name` is acceptable. */
export function validateTagName(name: string): string | null {
  return userRefNameProblem(name) === null ? null : t('Tag name invalid');
}

export const branchRef = (name: string): string => `refs/heads/${name}`;
export const tagRef = (name: string): string => `refs/tags/${name}`;
