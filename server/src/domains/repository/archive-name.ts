/**
 * GitLab's archive name, also the folder inside it: `<project path>-<ref>-<commit sha>`, the ref's
 * and the subpath's `/` turned into `-` (a subpath is appended), as Gitlab::Workhorse names them.
 */
export function archiveName(projectPath: string, ref: string, commitId: string, path?: string): string {
  const safe = (text: string) => text.replace(/[/\\]+/g, '-').replace(/[^\w.+@-]/g, '_');
  const base = `${safe(projectPath)}-${safe(ref)}-${commitId}`;
  return path ? `${base}-${safe(path)}` : base;
}
