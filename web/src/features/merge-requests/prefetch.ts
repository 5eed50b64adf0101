import { api, queryClient } from '../../app/client';
import { encodeId } from '../../lib/api-client';
import type { CommitDiff, MergeRequest } from '../../lib/gitlab-types';
import { parseProjectPage, splitAtDash } from '../../lib/routes';
import { discussionsQuery, firstDiscussionsPageUrl, type DiscussionPage } from '../notes';
import { loadNamespaceRoute } from '../namespaces';
import { projectQuery } from '../projects';
import { sessionQuery } from '../session';
import { mergeRequestQuery } from './api';
import { mergeRequestDiffPagesQuery, nextDiffPage, type DiffPage } from './diff-pages';

/** What a merge request page opened by its URL loads at once; null for the pages that prefetch nothing. */
export interface MergeRequestPrefetch {
  fullPath: string;
  iid: number;
  /** The Changes tab of the latest version: its first page of files too. */
  firstDiffs: boolean;
}

/** The Overview and the Changes tab prefetch; the Changes tab's first files only for the latest version (no `diff_id` or `start_sha`). */
export function mergeRequestPrefetch(pathname: string, search: string): MergeRequestPrefetch | null {
  const { fullPath, rest } = splitAtDash(pathname);
  const page = parseProjectPage(rest);
  if (fullPath === '' || page.kind !== 'merge-request' || (page.tab !== 'overview' && page.tab !== 'diffs')) return null;
  const params = new URLSearchParams(search);
  const latestVersion = !params.has('diff_id') && !params.has('start_sha');
  return { fullPath, iid: page.iid, firstDiffs: page.tab === 'diffs' && latestVersion };
}

/**
 * A merge request's Overview or Changes tab opened by its URL (a link, a reload): everything it
 * needs first starts loading at once, in parallel, instead of one after another as the pages mount
 * (session → project → page code → merge request → Activity section → its first threads; on the
 * Changes tab, its code and its first page of files, which waited for the merge request's head).
 * The REST API takes the project's URL-encoded path as `:id`, so nothing waits for the project
 * id; once the project is known, the answers are handed to the queries the page will ask
 * (keyed by project id), so the page finds them there, fetched or in flight, and asks nothing twice.
 */
export function prefetchMergeRequestPage(pathname: string, search: string): void {
  const plan = mergeRequestPrefetch(pathname, search);
  if (!plan) return;
  const { fullPath, iid } = plan;

  // The data first: the browser sends at most six requests at a time to one host, and the page's
  // code comes in dozens of small files that would otherwise queue ahead of it.
  void queryClient.prefetchQuery(sessionQuery());
  const project = queryClient.fetchQuery(projectQuery(fullPath));
  const byPath = `/projects/${encodeId(fullPath)}/merge_requests/${iid}`;
  const mergeRequest = api.get<MergeRequest>(byPath);
  // the threads serve the Changes tab too: its diff threads come from the same query
  const discussions = api.getKeysetPage<DiscussionPage['items'][number]>(firstDiscussionsPageUrl(encodeId(fullPath), iid));
  // the first files do not wait for the merge request: the diffs URL needs no head SHA
  const first = nextDiffPage(0);
  const firstDiffs = plan.firstDiffs ? api.getPage<CommitDiff>(`${byPath}/diffs`, { query: { page: first.page, per_page: first.perPage } }) : null;
  // the pages report their own failures when they ask; a prefetch that failed is simply not used
  mergeRequest.catch(() => undefined);
  discussions.catch(() => undefined);
  firstDiffs?.catch(() => undefined);
  // the code of the route and of the page (the router would ask for them one after the other)
  void loadNamespaceRoute().catch(() => undefined);
  void import('./MergeRequestPage').catch(() => undefined);
  if (plan.firstDiffs) void import('./MergeRequestChanges').catch(() => undefined);

  project
    .then((project) => {
      const detail = mergeRequestQuery(project.id, iid);
      if (!queryClient.getQueryState(detail.queryKey)) void queryClient.prefetchQuery({ ...detail, queryFn: () => mergeRequest });
      // only the first page: the Activity section's own query asks for the next ones
      const threads = discussionsQuery(project.id, iid);
      if (!queryClient.getQueryState(threads.queryKey)) void queryClient.prefetchInfiniteQuery({ ...threads, queryFn: () => discussions });
      if (firstDiffs) void seedFirstDiffs(project.id, iid, mergeRequest, firstDiffs);
    })
    .catch(() => undefined);
}

/**
 * Hands the first page of files to the Changes tab's query, keyed by the head the merge request
 * answered with (both requests left together; a push between them shows on the next load).
 */
async function seedFirstDiffs(projectId: number, iid: number, mergeRequest: Promise<MergeRequest>, firstDiffs: Promise<Omit<DiffPage, 'offset'>>): Promise<void> {
  const headSha = (await mergeRequest.catch(() => null))?.diff_refs?.head_sha;
  if (!headSha) return;
  const pages = mergeRequestDiffPagesQuery(projectId, iid, headSha);
  if (queryClient.getQueryState(pages.queryKey)) return;
  await queryClient.prefetchInfiniteQuery({ ...pages, queryFn: async () => ({ ...(await firstDiffs), offset: 0 }) });
}
