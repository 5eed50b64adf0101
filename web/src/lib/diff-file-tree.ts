/**
 * The file browser beside a diff: the changed paths as a tree of directories, each
 * directory with the files below it and their added and removed lines. A chain of
 * directories with a single subdirectory and no files is shown as one node
 * (`src/lib/util`), as GitLab does. Directories come first, then files, each by name. Pure.
 */
export interface TreeFileInput {
  id: string;
  path: string;
  added: number;
  removed: number;
}

export interface DiffTreeFile<F extends TreeFileInput = TreeFileInput> {
  kind: 'file';
  name: string;
  path: string;
  file: F;
}

export interface DiffTreeDir<F extends TreeFileInput = TreeFileInput> {
  kind: 'dir';
  name: string;
  path: string;
  children: DiffTreeNode<F>[];
  fileCount: number;
  added: number;
  removed: number;
}

export type DiffTreeNode<F extends TreeFileInput = TreeFileInput> = DiffTreeFile<F> | DiffTreeDir<F>;

interface MutableDir<F extends TreeFileInput> {
  dirs: Map<string, MutableDir<F>>;
  files: DiffTreeFile<F>[];
}

/**
 * One collator for every comparison: `localeCompare` with options builds one per call (100× slower on 1,000 files).
 * Made on first use, not when the module loads: the first Intl object of a page loads the browser's locale data,
 * and this module is part of the merge request page's code even when no file tree shows.
 */
let collators: { base: Intl.Collator; plain: Intl.Collator } | undefined;
const byName = (a: { name: string }, b: { name: string }) => {
  collators ??= { base: new Intl.Collator('en', { sensitivity: 'base' }), plain: new Intl.Collator('en') };
  return collators.base.compare(a.name, b.name) || collators.plain.compare(a.name, b.name);
};

function freeze<F extends TreeFileInput>(dir: MutableDir<F>, name: string, path: string): DiffTreeDir<F> {
  let node: MutableDir<F> = dir;
  let nodeName = name;
  let nodePath = path;
  // Compact: a directory holding exactly one directory and no files merges with it.
  while (nodeName !== '' && node.files.length === 0 && node.dirs.size === 1) {
    const [childName, child] = [...node.dirs][0]!;
    nodeName = `${nodeName}/${childName}`;
    nodePath = `${nodePath}/${childName}`;
    node = child;
  }
  const dirs = [...node.dirs].map(([childName, child]) => freeze(child, childName, nodePath ? `${nodePath}/${childName}` : childName)).sort(byName);
  const files = [...node.files].sort(byName);
  const result: DiffTreeDir<F> = { kind: 'dir', name: nodeName, path: nodePath, children: [...dirs, ...files], fileCount: files.length, added: 0, removed: 0 };
  for (const sub of dirs) {
    result.fileCount += sub.fileCount;
    result.added += sub.added;
    result.removed += sub.removed;
  }
  for (const { file } of files) {
    result.added += file.added;
    result.removed += file.removed;
  }
  return result;
}

/** The top level of the tree (the root directory's children). */
export function buildDiffTree<F extends TreeFileInput>(files: readonly F[]): DiffTreeNode<F>[] {
  const root: MutableDir<F> = { dirs: new Map(), files: [] };
  for (const file of files) {
    const parts = file.path.split('/').filter(Boolean);
    const name = parts.pop() ?? file.path;
    let dir = root;
    for (const part of parts) {
      let next = dir.dirs.get(part);
      if (!next) {
        next = { dirs: new Map(), files: [] };
        dir.dirs.set(part, next);
      }
      dir = next;
    }
    dir.files.push({ kind: 'file', name, path: file.path, file });
  }
  return freeze(root, '', '').children;
}

/** Files whose path contains every word of the query, case-insensitively. */
export function filterTreeFiles<F extends TreeFileInput>(files: readonly F[], query: string): F[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...files];
  return files.filter((file) => {
    const path = file.path.toLowerCase();
    return words.every((word) => path.includes(word));
  });
}

/** Paths of every directory in the tree, for expanding all of them. */
export function directoryPaths<F extends TreeFileInput>(nodes: readonly DiffTreeNode<F>[]): string[] {
  return nodes.flatMap((node) => (node.kind === 'dir' ? [node.path, ...directoryPaths(node.children)] : []));
}

export interface FlatTreeRow<F extends TreeFileInput = TreeFileInput> {
  node: DiffTreeNode<F>;
  /** 0 for the top level. */
  depth: number;
  /** Position among siblings, from 1, and the number of siblings (aria-posinset / aria-setsize). */
  position: number;
  siblings: number;
  /** The directory this row is in, or null at the top level. */
  parent: string | null;
}

/** The rows a tree view shows: every node whose ancestors are all expanded, in order. */
export function flattenTree<F extends TreeFileInput>(nodes: readonly DiffTreeNode<F>[], collapsed: ReadonlySet<string>): FlatTreeRow<F>[] {
  const rows: FlatTreeRow<F>[] = [];
  const walk = (level: readonly DiffTreeNode<F>[], depth: number, parent: string | null) => {
    level.forEach((node, index) => {
      rows.push({ node, depth, position: index + 1, siblings: level.length, parent });
      if (node.kind === 'dir' && !collapsed.has(node.path)) walk(node.children, depth + 1, node.path);
    });
  };
  walk(nodes, 0, null);
  return rows;
}

/** A row's stable identity: the file's id, or `dir:` and the directory's path. */
export function treeRowKey(node: DiffTreeNode): string {
  return node.kind === 'file' ? node.file.id : `dir:${node.path}`;
}
