import { OrganizationIcon, PlusIcon, SearchIcon } from '@primer/octicons-react';
import { PageHeader, Stack, TextInput } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { LinkButton } from '../../components/AppLink';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { useListParams } from '../../components/useListParams';
import { groupListQuery } from './api';
import { GroupList } from './GroupList';

/** `/dashboard/groups`: the groups the caller belongs to. */
export function DashboardGroupsPage() {
  const { search, page, searchInput, setSearchInput, setPage } = useListParams();
  const groups = useQuery(groupListQuery({ search, page }));

  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">Groups</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Actions>
          <LinkButton to="/groups/new" variant="primary" leadingVisual={PlusIcon}>
            New group
          </LinkButton>
        </PageHeader.Actions>
      </PageHeader>
      <TextInput
        aria-label="Filter groups"
        placeholder="Filter by name"
        leadingVisual={SearchIcon}
        value={searchInput}
        onChange={(event) => setSearchInput(event.target.value)}
        type="search"
        block
      />
      {groups.isPending ? (
        <SkeletonBox height="200px" />
      ) : groups.isError ? (
        <PageError error={groups.error} onRetry={() => void groups.refetch()} />
      ) : groups.data.items.length === 0 ? (
        search ? (
          <EmptyState icon={SearchIcon} title="No groups match your search" description={`Nothing matches “${search}”.`} />
        ) : (
          <EmptyState
            icon={OrganizationIcon}
            title="You're not a member of any groups yet"
            description="A group is a collection of several projects. Members of a group have access to all of its projects."
          >
            <LinkButton to="/groups/new" variant="primary">
              New group
            </LinkButton>
          </EmptyState>
        )
      ) : (
        <>
          <GroupList groups={groups.data.items} label="Your groups" />
          <PaginationNav pageInfo={groups.data.pageInfo} onPageChange={setPage} />
        </>
      )}
    </Stack>
  );
}
