import type { TreeEntry } from './gitlab-types';

const ORDER: Record<TreeEntry['type'], number> = { tree: 0, commit: 1, blob: 2 };

/** Directories first, then submodules, then files; each by name, case-insensitively (as GitLab lists them). */
export function sortTreeEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  return [...entries].sort(
    (a, b) => ORDER[a.type] - ORDER[b.type] || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.name.localeCompare(b.name),
  );
}

/** `a/b/c` → [{name:'a', path:'a'}, {name:'b', path:'a/b'}, {name:'c', path:'a/b/c'}] for breadcrumbs. */
export function pathCrumbs(path: string): { name: string; path: string }[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((name, index) => ({ name, path: parts.slice(0, index + 1).join('/') }));
}
