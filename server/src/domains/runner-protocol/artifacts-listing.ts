/**
 * One directory of a job's artifacts archive, as GitLab's artifacts browser shows it
 * (`-/jobs/:id/artifacts/browse/*path`): its subdirectories first, then its files, each sorted by
 * name. Directories that an archive only implies (`a/b/c.txt` without an `a/` entry) are listed
 * too. Pure.
 */
export interface ArtifactsEntry {
  name: string;
  /** the path inside the archive, without a trailing slash */
  path: string;
  type: 'directory' | 'file';
  /** bytes unpacked (files); null for directories */
  size: number | null;
}

/** The entries of directory `dir` ('' is the root), or null when the archive has no such directory. */
export function artifactsDirectory(entries: readonly { path: string; size: number; directory: boolean }[], dir: string): ArtifactsEntry[] | null {
  const prefix = dir === '' ? '' : `${dir}/`;
  const directories = new Map<string, ArtifactsEntry>();
  const files = new Map<string, ArtifactsEntry>();
  let exists = dir === '';
  for (const entry of entries) {
    if (entry.path === dir && entry.directory) exists = true;
    if (!entry.path.startsWith(prefix) || entry.path === dir) continue;
    exists = true;
    const rest = entry.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash === -1 && !entry.directory) {
      files.set(rest, { name: rest, path: entry.path, type: 'file', size: entry.size });
    } else {
      const name = slash === -1 ? rest : rest.slice(0, slash);
      directories.set(name, { name, path: prefix + name, type: 'directory', size: null });
    }
  }
  if (!exists) return null;
  const byName = (a: ArtifactsEntry, b: ArtifactsEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return [...[...directories.values()].sort(byName), ...[...files.values()].filter((file) => !directories.has(file.name)).sort(byName)];
}
