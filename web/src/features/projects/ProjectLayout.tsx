import { CodeIcon, GitBranchIcon, GitCommitIcon, PeopleIcon } from '@primer/octicons-react';
import { Breadcrumbs, PageHeader, Stack, UnderlineNav } from '@primer/react';
import type { ReactElement, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { EntityAvatar } from '../../components/EntityAvatar';
import { VisibilityIcon } from '../../components/VisibilityIcon';
import type { Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { pathCrumbs } from '../../lib/tree';
import styles from './ProjectLayout.module.css';

export type ProjectSection = 'code' | 'commits' | 'branches' | 'members';

/** Every project page: breadcrumbs, name, visibility, and the project's sections as tabs. */
export function ProjectLayout({ project, section, children }: { project: Project; section: ProjectSection; children: ReactNode }) {
  const fullPath = project.path_with_namespace;
  const ref = project.default_branch ?? '';
  const nav: { id: ProjectSection; label: string; to: string; icon: ReactElement }[] = [
    { id: 'code', label: 'Code', to: urls.project(fullPath), icon: <CodeIcon /> },
    { id: 'commits', label: 'Commits', to: ref ? urls.commits(fullPath, ref) : urls.project(fullPath), icon: <GitCommitIcon /> },
    { id: 'branches', label: 'Branches', to: urls.branches(fullPath), icon: <GitBranchIcon /> },
    { id: 'members', label: 'Members', to: urls.projectMembers(fullPath), icon: <PeopleIcon /> },
  ];
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
            <EntityAvatar name={project.name} id={project.id} size={32} />
          </PageHeader.LeadingVisual>
          <PageHeader.Title as="h1">{project.name}</PageHeader.Title>
          <PageHeader.TrailingVisual>
            <VisibilityIcon visibility={project.visibility} />
          </PageHeader.TrailingVisual>
        </PageHeader.TitleArea>
        {project.description ? <PageHeader.Description>{project.description}</PageHeader.Description> : null}
        <PageHeader.Navigation>
          <UnderlineNav aria-label="Project" className={styles.nav}>
            {nav.map((item) => (
              <UnderlineNav.Item
                key={item.id}
                as={RouterLink}
                to={item.to}
                leadingVisual={item.icon}
                aria-current={item.id === section ? 'page' : undefined}
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
