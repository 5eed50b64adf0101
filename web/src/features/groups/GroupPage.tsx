import { GearIcon, MilestoneIcon, OrganizationIcon, PeopleIcon, PlusIcon, RepoIcon, TagIcon } from '@primer/octicons-react';
import { Heading, PageHeader, Stack } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LinkButton } from '../../components/AppLink';
import { EmptyState } from '../../components/EmptyState';
import { EntityAvatar } from '../../components/EntityAvatar';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { VisibilityIcon } from '../../components/VisibilityIcon';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import type { Group } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { ProjectList } from '../projects/ProjectList';
import { OWNER } from '../../lib/permissions';
import { useGroupLevel } from '../settings/useGroupLevel';
import { useOptionalUser } from '../session/useCurrentUser';
import { groupProjectsQuery, subgroupsQuery } from './api';
import { GroupBreadcrumbs } from './GroupBreadcrumbs';
import { GroupList } from './GroupList';

function Subgroups({ group }: { group: Group }) {
  const [page, setPage] = useState(1);
  const subgroups = useQuery(subgroupsQuery(group.id, page));
  if (subgroups.isPending) return <SkeletonBox height="64px" />;
  if (subgroups.isError) return <PageError title="Subgroups could not be loaded." error={subgroups.error} onRetry={() => void subgroups.refetch()} />;
  if (subgroups.data.items.length === 0) return null;
  return (
    <section aria-labelledby="subgroups-heading">
      <Stack gap="condensed">
        <Heading as="h2" variant="small" id="subgroups-heading">
          Subgroups
        </Heading>
        <GroupList groups={subgroups.data.items} label="Subgroups" fullNames={false} />
        <PaginationNav pageInfo={subgroups.data.pageInfo} onPageChange={setPage} />
      </Stack>
    </section>
  );
}

function Projects({ group, signedIn }: { group: Group; signedIn: boolean }) {
  const [page, setPage] = useState(1);
  const projects = useQuery(groupProjectsQuery(group.id, page));
  return (
    <section aria-labelledby="projects-heading">
      <Stack gap="condensed">
        <Heading as="h2" variant="small" id="projects-heading">
          Projects
        </Heading>
        {projects.isPending ? (
          <SkeletonBox height="160px" />
        ) : projects.isError ? (
          <PageError title="Projects could not be loaded." error={projects.error} onRetry={() => void projects.refetch()} />
        ) : projects.data.items.length === 0 ? (
          <EmptyState icon={RepoIcon} title="There are no projects in this group yet" description={signedIn ? 'Create a project to store your code in this group.' : undefined}>
            {signedIn ? (
              <LinkButton to={urls.newProject(group.id)} variant="primary">
                New project
              </LinkButton>
            ) : null}
          </EmptyState>
        ) : (
          <>
            <ProjectList projects={projects.data.items} label={`Projects in ${group.name}`} showNamespace={false} />
            <PaginationNav pageInfo={projects.data.pageInfo} onPageChange={setPage} />
          </>
        )}
      </Stack>
    </section>
  );
}

/** `/<group path>`: the group's subgroups and projects, with "New subgroup" and "New project". */
export function GroupPage({ group }: { group: Group }) {
  // a signed-out visitor browses; creating needs an account
  const signedIn = useOptionalUser() !== null;
  // The Settings entry only for those who may use it (GitLab's admin_group: Owners).
  const isOwner = (useGroupLevel(group) ?? 0) >= OWNER;
  useDocumentTitle([group.full_name]);
  return (
    <Stack gap="spacious">
      <PageHeader>
        {group.parent_id !== null ? (
          <PageHeader.ContextArea hidden={false}>
            <GroupBreadcrumbs fullPath={group.full_path} name={group.name} />
          </PageHeader.ContextArea>
        ) : null}
        <PageHeader.TitleArea>
          <PageHeader.LeadingVisual>
            <EntityAvatar name={group.name} id={group.id} src={group.avatar_url} size={32} />
          </PageHeader.LeadingVisual>
          <PageHeader.Title as="h1">{group.name}</PageHeader.Title>
          <PageHeader.TrailingVisual>
            <VisibilityIcon visibility={group.visibility} />
          </PageHeader.TrailingVisual>
        </PageHeader.TitleArea>
        <PageHeader.Actions>
          <LinkButton to={urls.groupMembers(group.full_path)} leadingVisual={PeopleIcon}>
            Members
          </LinkButton>
          <LinkButton to={urls.groupLabels(group.full_path)} leadingVisual={TagIcon}>
            Labels
          </LinkButton>
          <LinkButton to={urls.groupMilestones(group.full_path)} leadingVisual={MilestoneIcon}>
            Milestones
          </LinkButton>
          {isOwner ? (
            <LinkButton to={urls.groupSettings(group.full_path)} leadingVisual={GearIcon}>
              Settings
            </LinkButton>
          ) : null}
          {signedIn ? (
            <>
              <LinkButton to={urls.newGroup(group.id)} leadingVisual={OrganizationIcon}>
                New subgroup
              </LinkButton>
              <LinkButton to={urls.newProject(group.id)} variant="primary" leadingVisual={PlusIcon}>
                New project
              </LinkButton>
            </>
          ) : null}
        </PageHeader.Actions>
        {group.description ? <PageHeader.Description>{group.description}</PageHeader.Description> : null}
      </PageHeader>
      <Subgroups group={group} />
      <Projects group={group} signedIn={signedIn} />
    </Stack>
  );
}
