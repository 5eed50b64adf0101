import type { Visibility } from '@tributary/contracts';

export interface Namespace {
  id: number;
  kind: 'user' | 'group';
  name: string;
  path: string;
  full_path: string;
  full_name: string;
  parent_id: number | null;
  owner_id: number | null;
  visibility: Visibility;
  description: string;
  /** ids from the root group down to this namespace, inclusive */
  traversal_ids: number[];
  created_at: Date;
}

/** GitLab's namespace/project path rule (Gitlab::PathRegex.namespace_format_regex). */
export const PATH_PATTERN = /^(?:[A-Za-z0-9_.][A-Za-z0-9_.-]*[A-Za-z0-9_-]|[A-Za-z0-9_])$/;

export const PATH_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

/** Returns GitLab's error for an invalid path, or null. Pure. */
export function pathError(path: string): string | null {
  if (path.length === 0) return "can't be blank";
  if (path.length > 255) return 'is too long (maximum is 255 characters)';
  if (!PATH_PATTERN.test(path) || /\.(git|atom)$/i.test(path) || path.includes('..')) return PATH_FORMAT_MESSAGE;
  return null;
}

/**
 * GitLab's group name rule (Gitlab::Regex.group_name_regex): starts with a letter, digit, emoji or
 * '_'; then letters, digits, emoji, '_', '.', '+', dashes, spaces and parentheses.
 */
const GROUP_NAME_PATTERN = /^[\p{L}\p{N}\u{00A9}-\u{1F9FF}_](?:[\p{L}\p{N}\p{Pd}+\u{00A9}-\u{1F9FF}_. ()]*)$/u;

export const GROUP_NAME_FORMAT_MESSAGE = "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";

/** GitLab's error for a group name, or null. Pure. */
export function groupNameError(name: string): string | null {
  if (name.trim() === '') return "can't be blank";
  if (name.length > 255) return 'is too long (maximum is 255 characters)';
  return GROUP_NAME_PATTERN.test(name) ? null : GROUP_NAME_FORMAT_MESSAGE;
}

/** GitLab's `name` + `path` derivation: a path from a name when only the name is given. */
export function pathFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/-{2,}/g, '-');
}
