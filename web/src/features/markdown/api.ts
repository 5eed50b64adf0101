import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';

/**
 * GitLab's POST /markdown renders for the reader: references link only what they may
 * see, and the server's allow-list sanitizer has already run on the HTML it returns.
 */
/** `project`: the id or full path in which `!1` resolves. */
export const renderedMarkdownQuery = (text: string, project: number | string | undefined) =>
  queryOptions({
    queryKey: ['markdown', project ?? null, text] as const,
    queryFn: ({ signal }) => api.post<{ html: string }>('/markdown', { signal, body: { text, gfm: true, project } }).then((result) => result.html),
    // A rendering only changes when a referenced object does; keep it for the session.
    staleTime: 5 * 60_000,
  });
