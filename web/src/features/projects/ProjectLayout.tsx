import { RepoForkedIcon } from '@primer/octicons-react';
import { Breadcrumbs, Link, PageHeader, Stack, UnderlineNav } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { EntityAvatar } from '../../components/EntityAvatar';
import { VisibilityIcon } from '../../components/VisibilityIcon';
import type { Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { pathCrumbs } from '../../lib/tree';
import { openMergeRequestCountQuery } from '../merge-requests';
import { MAINTAINER } from '../../lib/permissions';
import { userCanUseFeature, userProjectLevel, useOptionalUser } from '../session';
import styles from './ProjectLayout.module.css';

export type ProjectSection = 'code' | 'commits' | 'branches' | 'merge-requests' | 'labels' | 'milestones' | 'members' | 'settings' | 'pipelines' | 'jobs' | 'environments';

/** Every project page: breadcrumbs, name, visibility, and the project's sections as tabs. */
export function ProjectLayout({ project, section, children }: { project: Project; section: ProjectSection | null; children: ReactNode }) {
  const fullPath = project.path_with_namespace;
  const ref = project.default_branch ?? '';
  const user = useOptionalUser();
  // A disabled or members-only feature hides its tabs, as GitLab's sidebar does (the server refuses them anyway).
  const code = userCanUseFeature(project, user, 'repository');
  const mergeRequests = userCanUseFeature(project, user, 'merge_requests');
  const builds = userCanUseFeature(project, user, 'builds');
  const openCount = useQuery({ ...openMergeRequestCountQuery(project.id), enabled: mergeRequests });
  const nav: { id: ProjectSection; label: string; to: string; counter?: number }[] = [
    ...(code
      ? [
          { id: 'code' as const, label: 'Code', to: urls.project(fullPath) },
          { id: 'commits' as const, label: 'Commits', to: ref ? urls.commits(fullPath, ref) : urls.project(fullPath) },
          { id: 'branches' as const, label: 'Branches', to: urls.branches(fullPath) },
        ]
      : []),
    ...(mergeRequests
      ? [{ id: 'merge-requests' as const, label: 'Merge requests', to: urls.mergeRequests(fullPath), counter: openCount.data ?? undefined }]
      : []),
    // GitLab's Build → Pipelines and Jobs, and Operate → Environments (shown while CI/CD is enabled for the visitor).
    ...(builds
      ? [
          { id: 'pipelines' as const, label: 'Pipelines', to: urls.pipelines(fullPath) },
          { id: 'jobs' as const, label: 'Jobs', to: urls.jobs(fullPath) },
          { id: 'environments' as const, label: 'Environments', to: urls.environments(fullPath) },
        ]
      : []),
    { id: 'labels', label: 'Labels', to: urls.labels(fullPath) },
    { id: 'milestones', label: 'Milestones', to: urls.milestones(fullPath) },
    { id: 'members', label: 'Members', to: urls.projectMembers(fullPath) },
  ];
  // Only those who may change settings see the entry (GitLab's sidebar does the same).
  if (userProjectLevel(project, user) >= MAINTAINER) nav.push({ id: 'settings', label: 'Settings', to: urls.projectSettings(fullPath) });
  return (
    <Stack gap="normal">
      <PageHeader hasBorder={false}>
        <PageHeader.ContextArea hidden={false}>
          <Breadcrumbs>
            {project.namespace.kind === 'user' ? (
              // A personal namespace has no page of its own yet.
              <Breadcrumbs.Item as="span">{project.namespace.name}</Breadcrumbs.Item>
            ) : (
              pathCrumbs(project.namespace.full_path).map((crumb, index, all) => (
                <Breadcrumbs.Item key={crumb.path} as={RouterLink} to={urls.group(crumb.path)}>
                  {/* Only the project's own namespace has a name in the entity; parents show their paths. */}
                  {index === all.length - 1 ? project.namespace.name : crumb.name}
                </Breadcrumbs.Item>
              ))
            )}
            <Breadcrumbs.Item as={RouterLink} to={urls.project(fullPath)} selected>
              {project.name}
            </Breadcrumbs.Item>
          </Breadcrumbs>
        </PageHeader.ContextArea>
        <PageHeader.TitleArea>
          <PageHeader.LeadingVisual>
            <EntityAvatar name={project.name} id={project.id} src={project.avatar_url ?? null} size={32} />
          </PageHeader.LeadingVisual>
          <PageHeader.Title as="h1">{project.name}</PageHeader.Title>
          <PageHeader.TrailingVisual>
            <VisibilityIcon visibility={project.visibility} />
          </PageHeader.TrailingVisual>
        </PageHeader.TitleArea>
        <PageHeader.Actions>
          {project.empty_repo || !user ? null : (
            <LinkButton to={urls.newFork(fullPath)} leadingVisual={RepoForkedIcon} size="small">
              Fork
            </LinkButton>
          )}
        </PageHeader.Actions>
        {project.description || project.forked_from_project ? (
          <PageHeader.Description>
            {project.forked_from_project ? (
              <span className={styles.forkedFrom}>
                <RepoForkedIcon /> Forked from{' '}
                <Link as={RouterLink} to={urls.project(project.forked_from_project.path_with_namespace)}>
                  {project.forked_from_project.name_with_namespace}
                </Link>
              </span>
            ) : null}
            {project.description}
          </PageHeader.Description>
        ) : null}
        <PageHeader.Navigation>
          <UnderlineNav aria-label="Project" className={styles.nav}>
            {nav.map((item) => (
              <UnderlineNav.Item
                key={item.id}
                as={RouterLink}
                to={item.to}
                // Text only: with icons the eleven tabs of a Maintainer do not fit the page's
                // width, and the last ones (Members, Settings) would hide behind "More".
                aria-current={item.id === section ? 'page' : undefined}
                counter={item.counter}
              >
                {item.label}
              </UnderlineNav.Item>
            ))}
          </UnderlineNav>
        </PageHeader.Navigation>
      </PageHeader>
      {children}
    </Stack>
  );
}
