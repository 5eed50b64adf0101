import { PlusIcon, RepoIcon } from '@primer/octicons-react';
import { useQuery } from '@tanstack/react-query';
import { LinkButton } from '../../components/AppLink';
import { EmptyState } from '../../components/EmptyState';
import { SearchableListPage } from '../../components/SearchableListPage';
import { useListParams } from '../../components/useListParams';
import { projectListQuery } from './api';
import { ProjectList } from './ProjectList';
import { useDocumentTitle } from '../../components/useDocumentTitle';

/** `/`: the caller's projects with search; an empty state that leads to "New project". */
export function DashboardProjectsPage() {
  useDocumentTitle(['Projects']);
  const params = useListParams();
  const projects = useQuery(projectListQuery({ search: params.search, page: params.page }));
  return (
    <SearchableListPage
      title="Projects"
      filterLabel="Filter projects"
      noun="projects"
      params={params}
      query={projects}
      actions={
        <>
          <LinkButton to="/dashboard/groups">Your groups</LinkButton>
          <LinkButton to="/projects/new" variant="primary" leadingVisual={PlusIcon}>
            New project
          </LinkButton>
        </>
      }
      empty={
        <EmptyState icon={RepoIcon} title="You don't have any projects yet" description="Projects are where you store your code, access issues and collaborate on code.">
          <LinkButton to="/projects/new" variant="primary">
            New project
          </LinkButton>
        </EmptyState>
      }
    >
      {(items) => <ProjectList projects={items} label="Your projects" />}
    </SearchableListPage>
  );
}
