import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import { decodeText, splitLines } from '../../lib/file-content';

/**
 * Blobs the diff viewer reads besides the diff: GET /projects/:id/repository/files/:path/raw
 * at a commit SHA, for expanding context, showing whole files and images, and `.gitmodules`.
 * Content at a SHA never changes, so it is cached for the page's life.
 */
export interface RawFile {
  size: number;
  /** The lines of a text file; null when the file is binary. */
  lines: string[] | null;
  text: string | null;
}

export const diffBlobKeys = {
  raw: (projectId: number, sha: string, path: string) => ['projects', projectId, 'raw-file', sha, path] as const,
};

/** git's patch of one file of a merge request version (the server's …/versions/:id/diffs?path=), for a file it sent collapsed. */
export const versionFilePatchQuery = (projectId: number, iid: number, versionId: number, path: string) =>
  queryOptions({
    queryKey: ['projects', projectId, 'merge_requests', iid, 'versions', versionId, 'file-patch', path] as const,
    queryFn: async ({ signal }): Promise<string | null> => {
      const diffs = await api.get<Array<{ diff: string; old_path: string; new_path: string }>>(`/projects/${projectId}/merge_requests/${iid}/versions/${versionId}/diffs`, {
        signal,
        query: { path },
      });
      return diffs.find((diff) => diff.new_path === path || diff.old_path === path)?.diff ?? null;
    },
    staleTime: Infinity,
    gcTime: 10 * 60_000,
  });

/**
 * git's patch of one file between two commits (the server's compare, `straight`, restricted to the
 * file's paths), for a file a comparison sent collapsed: a branch compare or two versions of a
 * merge request compared. Both paths for a renamed file, so git pairs them.
 */
export const comparedFilePatchQuery = (projectId: number, from: string, to: string, oldPath: string, newPath: string) =>
  queryOptions({
    queryKey: ['projects', projectId, 'compare', from, to, 'file-patch', oldPath, newPath] as const,
    queryFn: async ({ signal }): Promise<string | null> => {
      const comparison = await api.get<{ diffs: Array<{ diff: string; old_path: string; new_path: string }> }>(`/projects/${projectId}/repository/compare`, {
        signal,
        query: { from, to, straight: true, paths: oldPath === newPath ? [newPath] : [oldPath, newPath] },
      });
      return comparison.diffs.find((diff) => diff.new_path === newPath && diff.old_path === oldPath)?.diff ?? comparison.diffs.find((diff) => diff.new_path === newPath || diff.old_path === oldPath)?.diff ?? null;
    },
    staleTime: Infinity,
    gcTime: 10 * 60_000,
  });

export const rawFileQuery = (projectId: number, sha: string, path: string) =>
  queryOptions({
    queryKey: diffBlobKeys.raw(projectId, sha, path),
    queryFn: async ({ signal }): Promise<RawFile> => {
      const blob = await api.getBlob(`/projects/${projectId}/repository/files/${encodeId(path)}/raw`, { signal, query: { ref: sha } });
      const text = decodeText(new Uint8Array(await blob.arrayBuffer()));
      return { size: blob.size, text, lines: text === null ? null : splitLines(text) };
    },
    staleTime: Infinity,
    gcTime: 10 * 60_000,
  });
