import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';

/** An image's bytes at a commit (GET …/repository/files/:path/raw?ref=<sha>). */
export const imageBlobQuery = (projectId: number, sha: string, path: string) =>
  queryOptions({
    queryKey: ['projects', projectId, 'raw-blob', sha, path] as const,
    queryFn: ({ signal }) => api.getBlob(`/projects/${projectId}/repository/files/${encodeId(path)}/raw`, { signal, query: { ref: sha } }),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });

/** The image as an object URL (revoked when no longer shown) and its size in bytes. */
export function useImageBlob(projectId: number, sha: string | null, path: string) {
  const blob = useQuery({ ...imageBlobQuery(projectId, sha ?? '', path), enabled: sha !== null });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob.data) return;
    const objectUrl = URL.createObjectURL(blob.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob.data]);
  return { url, size: blob.data?.size ?? null, isPending: blob.isPending, error: blob.error, retry: () => void blob.refetch() };
}
