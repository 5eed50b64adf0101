import { OrganizationIcon, PlusIcon } from '@primer/octicons-react';
import { useQuery } from '@tanstack/react-query';
import { LinkButton } from '../../components/AppLink';
import { EmptyState } from '../../components/EmptyState';
import { SearchableListPage } from '../../components/SearchableListPage';
import { useListParams } from '../../components/useListParams';
import { groupListQuery } from './api';
import { GroupList } from './GroupList';
import { useDocumentTitle } from '../../components/useDocumentTitle';

/** `/dashboard/groups`: the groups the caller belongs to. */
export function DashboardGroupsPage() {
  useDocumentTitle(['Groups']);
  const params = useListParams();
  const groups = useQuery(groupListQuery({ search: params.search, page: params.page }));
  return (
    <SearchableListPage
      title="Groups"
      filterLabel="Filter groups"
      noun="groups"
      params={params}
      query={groups}
      actions={
        <LinkButton to="/groups/new" variant="primary" leadingVisual={PlusIcon}>
          New group
        </LinkButton>
      }
      empty={
        <EmptyState
          icon={OrganizationIcon}
          title="You're not a member of any groups yet"
          description="A group is a collection of several projects. Members of a group have access to all of its projects."
        >
          <LinkButton to="/groups/new" variant="primary">
            New group
          </LinkButton>
        </EmptyState>
      }
    >
      {(items) => <GroupList groups={items} label="Your groups" />}
    </SearchableListPage>
  );
}
