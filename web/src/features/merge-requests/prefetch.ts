import { api, queryClient } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import type { MergeRequest } from '../../lib/gitlab-types';
import { parseProjectPage, splitAtDash } from '../../lib/routes';
import { discussionsQuery, firstDiscussionsPageUrl, type DiscussionPage } from '../notes/api';
import { projectQuery } from '../projects/api';
import { sessionQuery } from '../session/api';
import { mergeRequestQuery } from './api';

/**
 * A merge request's page opened by its URL (a link, a reload): everything its Overview needs
 * first starts loading at once, in parallel, instead of one after another as the pages mount
 * (session → project → page code → merge request → Activity section → its first threads).
 * The REST API takes the project's URL-encoded path as `:id`, so nothing waits for the project
 * id; once the project is known, the answers are handed to the queries the page will ask
 * (keyed by project id), so the page finds them there, fetched or in flight, and asks nothing twice.
 */
export function prefetchMergeRequestPage(pathname: string): void {
  const { fullPath, rest } = splitAtDash(pathname);
  const page = parseProjectPage(rest);
  if (fullPath === '' || page.kind !== 'merge-request' || page.tab !== 'overview') return;
  const { iid } = page;

  // The data first: the browser sends at most six requests at a time to one host, and the page's
  // code comes in dozens of small files that would otherwise queue ahead of it.
  void queryClient.prefetchQuery(sessionQuery());
  const project = queryClient.fetchQuery(projectQuery(fullPath));
  const byPath = `/projects/${encodeId(fullPath)}/merge_requests/${iid}`;
  const mergeRequest = api.get<MergeRequest>(byPath);
  const discussions = api.getKeysetPage<DiscussionPage['items'][number]>(firstDiscussionsPageUrl(encodeId(fullPath), iid));
  // the pages report their own failures when they ask; a prefetch that failed is simply not used
  mergeRequest.catch(() => undefined);
  discussions.catch(() => undefined);
  // the code of the route and of the page (the router would ask for them one after the other)
  void import('../namespaces/NamespaceRoute').catch(() => undefined);
  void import('./MergeRequestPage').catch(() => undefined);

  project
    .then((project) => {
      const detail = mergeRequestQuery(project.id, iid);
      if (!queryClient.getQueryState(detail.queryKey)) void queryClient.prefetchQuery({ ...detail, queryFn: () => mergeRequest });
      // only the first page: the Activity section's own query asks for the next ones
      const threads = discussionsQuery(project.id, iid);
      if (!queryClient.getQueryState(threads.queryKey)) void queryClient.prefetchInfiniteQuery({ ...threads, queryFn: () => discussions });
    })
    .catch(() => undefined);
}
