import { SearchIcon } from '@primer/octicons-react';
import { PageHeader, Stack, TextInput } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';
import { PageError } from './PageError';
import { PaginationNav } from './PaginationNav';
import type { useListParams } from './useListParams';

type ListPage<T> = { items: T[]; pageInfo: Parameters<typeof PaginationNav>[0]['pageInfo'] };

/**
 * A dashboard list (projects, groups): title and actions, a search box kept in the URL,
 * then the loading, error, no-match, empty or filled state, and pagination.
 */
export function SearchableListPage<T>(props: {
  title: string;
  actions: ReactNode;
  /** accessible name of the search box, e.g. "Filter projects" */
  filterLabel: string;
  /** what no search result is called, e.g. "projects" */
  noun: string;
  params: ReturnType<typeof useListParams>;
  query: UseQueryResult<ListPage<T>>;
  /** shown when the caller has none at all */
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  const { params, query } = props;
  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">{props.title}</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Actions>{props.actions}</PageHeader.Actions>
      </PageHeader>
      <TextInput
        aria-label={props.filterLabel}
        placeholder="Filter by name"
        leadingVisual={SearchIcon}
        value={params.searchInput}
        onChange={(event) => params.setSearchInput(event.target.value)}
        type="search"
        block
      />
      {query.isPending ? (
        <SkeletonBox height="240px" />
      ) : query.isError ? (
        <PageError error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        params.search ? (
          <EmptyState icon={SearchIcon} title={`No ${props.noun} match your search`} description={`Nothing matches “${params.search}”.`} />
        ) : (
          props.empty
        )
      ) : (
        <>
          {props.children(query.data.items)}
          <PaginationNav pageInfo={query.data.pageInfo} onPageChange={params.setPage} />
        </>
      )}
    </Stack>
  );
}
