/**
 * The merge request list's filters, kept in the URL with GitLab's names (`state`,
 * `author_username`, `sort=created_date` …) and turned into the query of
 * GET /projects/:id/merge_requests or GET /merge_requests. Pure.
 */
import type { Query } from '../../lib/api-client';
import { pageFromSearch } from '../../lib/pagination';

export const MERGE_REQUESTS_PER_PAGE = 20;

export const LIST_STATES = ['opened', 'merged', 'closed', 'all'] as const;
export type ListState = (typeof LIST_STATES)[number];

export const SORTS = {
  created_date: { label: 'Created date', order_by: 'created_at', sort: 'desc' },
  created_asc: { label: 'Oldest created', order_by: 'created_at', sort: 'asc' },
  updated_desc: { label: 'Updated date', order_by: 'updated_at', sort: 'desc' },
  updated_asc: { label: 'Oldest updated', order_by: 'updated_at', sort: 'asc' },
  title_asc: { label: 'Title', order_by: 'title', sort: 'asc' },
  title_desc: { label: 'Title, descending', order_by: 'title', sort: 'desc' },
} as const;
export type SortKey = keyof typeof SORTS;

export const DASHBOARD_SCOPES = ['assigned_to_me', 'reviews_for_me', 'created_by_me'] as const;
export type DashboardScope = (typeof DASHBOARD_SCOPES)[number];

/** The filters a person can set besides the state tab. */
export const FILTER_KEYS = ['search', 'author_username', 'assignee_username', 'reviewer_username', 'source_branch', 'target_branch', 'draft', 'labels', 'milestone'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export interface ListParams {
  state: ListState;
  sort: SortKey;
  page: number;
  filters: Partial<Record<FilterKey, string>>;
}

const isState = (value: string | null): value is ListState => LIST_STATES.includes(value as ListState);
const isSort = (value: string | null): value is SortKey => value !== null && Object.hasOwn(SORTS, value);

export function parseListParams(search: URLSearchParams): ListParams {
  const state = search.get('state');
  const sort = search.get('sort');
  const filters: ListParams['filters'] = {};
  for (const key of FILTER_KEYS) {
    // a label reference in Markdown links to GitLab's `label_name[]=…`
    const value = (search.get(key) ?? (key === 'labels' ? search.get('label_name[]') : null))?.trim();
    if (!value) continue;
    if (key === 'draft' && value !== 'yes' && value !== 'no') continue;
    filters[key] = value;
  }
  return { state: isState(state) ? state : 'opened', sort: isSort(sort) ? sort : 'created_date', page: pageFromSearch(search), filters };
}

/** The URL for new params: defaults are left out, and page 1 too. */
export function listSearch(params: ListParams, extra: Record<string, string> = {}): URLSearchParams {
  const search = new URLSearchParams(extra);
  if (params.state !== 'opened') search.set('state', params.state);
  for (const key of FILTER_KEYS) {
    const value = params.filters[key];
    if (value) search.set(key, value);
  }
  if (params.sort !== 'created_date') search.set('sort', params.sort);
  if (params.page > 1) search.set('page', String(params.page));
  return search;
}

/** The API query for one state (a page of the list, or a count with per_page=1). */
export function apiQuery(params: Omit<ListParams, 'state'>, state: ListState, extra: Query = {}): Query {
  const { draft, ...rest } = params.filters;
  return {
    ...extra,
    ...rest,
    state: state === 'all' ? undefined : state,
    wip: draft,
    with_labels_details: true,
    order_by: SORTS[params.sort].order_by,
    sort: SORTS[params.sort].sort,
    page: params.page,
    per_page: MERGE_REQUESTS_PER_PAGE,
  };
}

/** The query that counts one state's merge requests from X-Total. */
export function countQuery(params: Omit<ListParams, 'state'>, state: ListState, extra: Query = {}): Query {
  return { ...apiQuery({ ...params, page: 1 }, state, extra), per_page: 1, order_by: undefined, sort: undefined };
}

export function hasFilters(params: ListParams): boolean {
  return Object.keys(params.filters).length > 0;
}
