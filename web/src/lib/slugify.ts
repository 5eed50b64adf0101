/**
 * A project or group path from its name, as GitLab's new-project form fills it:
 * letters, digits, `_`, `-` and `.` only; lower case; no leading `-`, `_` or `.`;
 * no trailing `.git` or `.atom`, which GitLab refuses.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_.]+/, '')
    .replace(/(\.git|\.atom)+$/, '')
    .replace(/[-.]+$/, '');
}
