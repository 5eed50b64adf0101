import { RepoIcon, SearchIcon, PlusIcon } from '@primer/octicons-react';
import { PageHeader, Stack, TextInput } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { LinkButton } from '../../components/AppLink';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { useListParams } from '../../components/useListParams';
import { projectListQuery } from './api';
import { ProjectList } from './ProjectList';

/** `/`: the caller's projects with search; an empty state that leads to "New project". */
export function DashboardProjectsPage() {
  const { search, page, searchInput, setSearchInput, setPage } = useListParams();
  const projects = useQuery(projectListQuery({ search, page }));

  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">Projects</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Actions>
          <LinkButton to="/dashboard/groups">Your groups</LinkButton>
          <LinkButton to="/projects/new" variant="primary" leadingVisual={PlusIcon}>
            New project
          </LinkButton>
        </PageHeader.Actions>
      </PageHeader>
      <TextInput
        aria-label="Filter projects"
        placeholder="Filter by name"
        leadingVisual={SearchIcon}
        value={searchInput}
        onChange={(event) => setSearchInput(event.target.value)}
        type="search"
        block
      />
      {projects.isPending ? (
        <SkeletonBox height="240px" />
      ) : projects.isError ? (
        <PageError error={projects.error} onRetry={() => void projects.refetch()} />
      ) : projects.data.items.length === 0 ? (
        search ? (
          <EmptyState icon={SearchIcon} title="No projects match your search" description={`Nothing matches “${search}”.`} />
        ) : (
          <EmptyState
            icon={RepoIcon}
            title="You don't have any projects yet"
            description="Projects are where you store your code, access issues and collaborate on code."
          >
            <LinkButton to="/projects/new" variant="primary">
              New project
            </LinkButton>
          </EmptyState>
        )
      ) : (
        <>
          <ProjectList projects={projects.data.items} label="Your projects" />
          <PaginationNav pageInfo={projects.data.pageInfo} onPageChange={setPage} />
        </>
      )}
    </Stack>
  );
}
