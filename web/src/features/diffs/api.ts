import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import { decodeText } from '../../lib/file-content';
import { splitLines } from '../../lib/line-diff';

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
