import { infiniteQueryOptions, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { API_PREFIX, buildQuery, encodeId } from '../../lib/api-client';
import { apiErrorFromBody } from '../../lib/api-error';
import type { Branch, CommitSummary, RepositoryFile, TreeEntry } from '../../lib/gitlab-types';
import type { FileUpdate } from './edit-file';
import type { FileCreate } from './new-file';

/** GitLab: GET /projects/:id/repository/tree, …/files/:file_path[/raw], …/commits?per_page=1 (last commit). */
export const TREE_PER_PAGE = 100;

export const repositoryKeys = {
  all: (projectId: number) => ['projects', projectId, 'repository'] as const,
  tree: (projectId: number, ref: string, path: string) => [...repositoryKeys.all(projectId), 'tree', ref, path] as const,
  file: (projectId: number, ref: string, path: string) => [...repositoryKeys.all(projectId), 'file', ref, path] as const,
  lastCommit: (projectId: number, ref: string, path: string) =>
    [...repositoryKeys.all(projectId), 'last-commit', ref, path] as const,
  branch: (projectId: number, name: string) => [...repositoryKeys.all(projectId), 'branch', name] as const,
};

/** A directory listing, 100 entries a page; "Load more" fetches the next. */
export const treeQuery = (projectId: number, ref: string, path: string) =>
  infiniteQueryOptions({
    queryKey: repositoryKeys.tree(projectId, ref, path),
    queryFn: ({ signal, pageParam }) =>
      api.getPage<TreeEntry>(`/projects/${projectId}/repository/tree`, {
        signal,
        query: { ref, path, page: pageParam, per_page: TREE_PER_PAGE },
      }),
    initialPageParam: 1,
    getNextPageParam: (last) => last.pageInfo.nextPage ?? undefined,
  });

export const fileQuery = (projectId: number, ref: string, path: string) =>
  queryOptions({
    queryKey: repositoryKeys.file(projectId, ref, path),
    queryFn: ({ signal }) =>
      api.get<RepositoryFile>(`/projects/${projectId}/repository/files/${encodeId(path)}`, { signal, query: { ref } }),
    staleTime: 5 * 60_000,
  });

/** The newest commit touching `path` on `ref`. */
export const lastCommitQuery = (projectId: number, ref: string, path: string) =>
  queryOptions({
    queryKey: repositoryKeys.lastCommit(projectId, ref, path),
    queryFn: async ({ signal }) => {
      const commits = await api.get<CommitSummary[]>(`/projects/${projectId}/repository/commits`, {
        signal,
        query: { ref_name: ref, path, per_page: 1 },
      });
      return commits[0] ?? null;
    },
  });

/** A link (not a fetch) to the file's raw bytes, served with the session cookie. */
export function rawFileUrl(projectId: number, path: string, ref: string): string {
  return `${API_PREFIX}/projects/${projectId}/repository/files/${encodeId(path)}/raw${buildQuery({ ref })}`;
}

/** One branch, with `can_push` for the caller (GET /projects/:id/repository/branches/:branch). */
export const branchQuery = (projectId: number, name: string) =>
  queryOptions({
    queryKey: repositoryKeys.branch(projectId, name),
    queryFn: ({ signal }) => api.get<Branch>(`/projects/${projectId}/repository/branches/${encodeId(name)}`, { signal }),
  });

/** The new file form's commit: POST /projects/:id/repository/files/:file_path. */
export const createFileMutation = (projectId: number) =>
  mutationOptions({
    mutationKey: [...repositoryKeys.all(projectId), 'create-file'],
    mutationFn: ({ path, body }: { path: string; body: FileCreate }) => api.post<{ file_path: string; branch: string }>(`/projects/${projectId}/repository/files/${encodeId(path)}`, { body }),
  });

/** The single-file editor's commit: PUT /projects/:id/repository/files/:file_path. */
export const updateFileMutation = (projectId: number, path: string) =>
  mutationOptions({
    mutationKey: [...repositoryKeys.all(projectId), 'update-file', path],
    mutationFn: (body: FileUpdate) => api.put<{ file_path: string; branch: string }>(`/projects/${projectId}/repository/files/${encodeId(path)}`, { body }),
  });

/** The owners of a file at a ref, and the CODEOWNERS file's syntax errors when it is that file. */
export interface CodeOwnersOfFile {
  codeowners_path: string | null;
  code_owners: Array<{ type: 'user'; id: number; username: string; name: string; web_url: string } | { type: 'group'; id: number; full_path: string; name: string; web_url: string }>;
  errors: Array<{ kind: string; line: number; message: string }> | null;
}

/** `GET /<project>/-/code_owners?ref=&path=` (a web route: the session cookie, no token). */
export const codeOwnersQuery = (fullPath: string, ref: string, path: string) =>
  queryOptions({
    queryKey: ['code-owners', fullPath, ref, path] as const,
    queryFn: async ({ signal }): Promise<CodeOwnersOfFile> => {
      const url = `/${fullPath.split('/').map(encodeURIComponent).join('/')}/-/code_owners${buildQuery({ ref, path })}`;
      const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw apiErrorFromBody(response.status, body);
      return body as CodeOwnersOfFile;
    },
    staleTime: 60_000,
  });
