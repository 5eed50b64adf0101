/**
 * GitLab's group name rule as its form checks it (the server refuses the same names with
 * "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start
 * with letter, digit, emoji or '_'."). Returns the form's message, or null.
 */
const START = /^[\p{L}\p{N}\u{00A9}-\u{1F9FF}_]/u;
const CONTAINS = /^[\p{L}\p{N}\p{Pd}+\u{00A9}-\u{1F9FF}_. ()]+$/u;

export function groupNameProblem(name: string): string | null {
  if (name.trim() === '') return 'Please enter a group name.';
  if (!START.test(name)) return 'Group name must start with a letter, digit, emoji, or underscore.';
  if (!CONTAINS.test(name)) return 'Group name can contain only letters, digits, dashes, spaces, dots, underscores, parenthesis, and emojis.';
  return null;
}
