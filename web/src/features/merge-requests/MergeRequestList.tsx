import { GitPullRequestIcon, SearchIcon, SortAscIcon, XIcon } from '@primer/octicons-react';
import { ActionList, ActionMenu, Button, Select, Stack, TextInput, UnderlineNav } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { useSettledText } from '../../components/useSettledText';
import type { Query } from '../../lib/api-client';
import type { MergeRequestBasic } from '../../lib/gitlab-types';
import { splitAtDash } from '../../lib/routes';
import { mergeRequestCountsQuery, mergeRequestListQuery } from './api';
import { hasFilters, LIST_STATES, listSearch, parseListParams, SORTS, type FilterKey, type ListParams, type ListState, type SortKey } from './list-params';
import styles from './MergeRequestList.module.css';
import { MergeRequestRow } from './MergeRequestRow';
import { UserFilterSelect } from './UserSelect';
import { LabelFilterSelect, MilestoneFilterSelect } from '../labels';

const STATE_LABELS: Record<ListState, string> = { opened: 'Open', merged: 'Merged', closed: 'Closed', all: 'All' };
/** Typing pauses this long before a text filter goes to the server. */
const FILTER_DEBOUNCE_MS = 300;

/**
 * A text filter that goes to the server once typing settles. The URL is the truth: when it
 * changes under the field (Clear filters, Back) the field shows it, and that is not sent back.
 */
function DebouncedInput({ label, value, onChange, icon, width }: { label: string; value: string; onChange: (value: string) => void; icon?: typeof SearchIcon; width?: number }) {
  const [text, setText] = useSettledText(value, (settled) => onChange(settled.trim()), FILTER_DEBOUNCE_MS);
  return (
    <TextInput aria-label={label} placeholder={label} value={text} onChange={(event) => setText(event.target.value)} leadingVisual={icon} size="small" style={width ? { width } : undefined} />
  );
}

/** The list's own path of a merge request, from its web_url. */
function hrefOf(mr: MergeRequestBasic): string {
  try {
    return new URL(mr.web_url).pathname;
  } catch {
    return mr.web_url;
  }
}

/**
 * A merge request list with state tabs and their counts, filters (search, author, assignee,
 * reviewer, branches, draft), sort, pages and empty states. Everything is kept in the URL.
 * `scope` is a project id or 'dashboard' (GET /merge_requests with `extra.scope`).
 */
export function MergeRequestList({ scope, extra = {}, usersProjectId, showProject, emptyAction, emptyDescription }: {
  scope: number | 'dashboard';
  extra?: Query;
  usersProjectId: number | null;
  showProject?: boolean;
  emptyAction?: ReactNode;
  emptyDescription?: string;
}) {
  const [search, setSearch] = useSearchParams();
  const params = parseListParams(search);
  const { state: _state, page: _page, ...shared } = params;
  const list = useQuery(mergeRequestListQuery(scope, params, extra));
  const counts = useQuery(mergeRequestCountsQuery(scope, shared, extra));

  const keep = Object.fromEntries([...search].filter(([key]) => key === 'scope'));
  const go = (next: ListParams) => setSearch(listSearch(next, keep));
  const setFilter = (key: FilterKey, value: string | null) => go({ ...params, page: 1, filters: { ...params.filters, [key]: value || undefined } });
  const searchFor = (state: ListState) => listSearch({ ...params, state, page: 1 }, keep).toString();

  return (
    <Stack gap="normal">
      <UnderlineNav aria-label="Merge request state">
        {LIST_STATES.map((state) => (
          <UnderlineNav.Item
            key={state}
            as={RouterLink}
            to={{ search: searchFor(state) }}
            aria-current={params.state === state ? 'page' : undefined}
            counter={counts.data?.[state] ?? undefined}
          >
            {STATE_LABELS[state]}
          </UnderlineNav.Item>
        ))}
      </UnderlineNav>
      <div className={styles.filters} role="search" aria-label="Filter merge requests">
        <DebouncedInput label="Search or filter results" value={params.filters.search ?? ''} onChange={(value) => setFilter('search', value)} icon={SearchIcon} width={260} />
        <UserFilterSelect label="Author" projectId={usersProjectId} username={params.filters.author_username ?? null} onChange={(value) => setFilter('author_username', value)} />
        <UserFilterSelect label="Assignee" projectId={usersProjectId} username={params.filters.assignee_username ?? null} onChange={(value) => setFilter('assignee_username', value)} />
        <UserFilterSelect label="Reviewer" projectId={usersProjectId} username={params.filters.reviewer_username ?? null} onChange={(value) => setFilter('reviewer_username', value)} />
        <DebouncedInput label="Source branch" value={params.filters.source_branch ?? ''} onChange={(value) => setFilter('source_branch', value)} width={150} />
        <DebouncedInput label="Target branch" value={params.filters.target_branch ?? ''} onChange={(value) => setFilter('target_branch', value)} width={150} />
        {typeof scope === 'number' ? (
          <>
            <LabelFilterSelect projectId={scope} value={params.filters.labels ?? null} onChange={(value) => setFilter('labels', value)} />
            <MilestoneFilterSelect projectId={scope} value={params.filters.milestone ?? null} onChange={(value) => setFilter('milestone', value)} />
          </>
        ) : null}
        <Select aria-label="Draft" size="small" value={params.filters.draft ?? ''} onChange={(event) => setFilter('draft', event.target.value)}>
          <Select.Option value="">Drafts and ready</Select.Option>
          <Select.Option value="yes">Drafts only</Select.Option>
          <Select.Option value="no">Ready only</Select.Option>
        </Select>
        {hasFilters(params) ? (
          <Button size="small" variant="invisible" leadingVisual={XIcon} onClick={() => go({ ...params, page: 1, filters: {} })}>
            Clear filters
          </Button>
        ) : null}
        <span className={styles.spacer} />
        <ActionMenu>
          <ActionMenu.Button size="small" leadingVisual={SortAscIcon} aria-label={`Sort by: ${SORTS[params.sort].label}`}>
            {SORTS[params.sort].label}
          </ActionMenu.Button>
          <ActionMenu.Overlay width="small">
            <ActionList selectionVariant="single" aria-label="Sort by">
              {(Object.keys(SORTS) as SortKey[]).map((key) => (
                <ActionList.Item key={key} selected={key === params.sort} onSelect={() => go({ ...params, sort: key, page: 1 })}>
                  {SORTS[key].label}
                </ActionList.Item>
              ))}
            </ActionList>
          </ActionMenu.Overlay>
        </ActionMenu>
      </div>
      {list.isPending ? (
        <div role="status" aria-label="Loading merge requests">
          <SkeletonBox height="240px" />
        </div>
      ) : list.isError ? (
        <PageError title="The merge requests could not be loaded." error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        hasFilters(params) ? (
          <EmptyState icon={SearchIcon} title="No results found" description="Edit your search and try again." />
        ) : (
          <EmptyState icon={GitPullRequestIcon} title={params.state === 'opened' ? 'There are no open merge requests' : `There are no ${params.state === 'all' ? '' : `${STATE_LABELS[params.state].toLowerCase()} `}merge requests`} description={emptyDescription}>
            {emptyAction}
          </EmptyState>
        )
      ) : (
        <>
          <ul className={styles.list} aria-label="Merge requests">
            {list.data.items.map((mr) => {
              const href = hrefOf(mr);
              return <MergeRequestRow key={mr.id} mr={mr} href={href} projectPath={showProject ? splitAtDash(href).fullPath : undefined} />;
            })}
          </ul>
          <PaginationNav
            pageInfo={list.data.pageInfo}
            onPageChange={(next) => {
              go({ ...params, page: next });
              window.scrollTo({ top: 0 });
            }}
          />
        </>
      )}
    </Stack>
  );
}
