import { ActionList, Label } from '@primer/react';
import { Link as RouterLink } from 'react-router-dom';
import { EntityAvatar } from '../../components/EntityAvatar';
import { TimeAgo } from '../../components/TimeAgo';
import { VisibilityIcon } from '../../components/VisibilityIcon';
import type { Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import styles from './ProjectList.module.css';

/** Rows of projects: avatar, namespace / name, description, visibility and last activity. */
export function ProjectList({ projects, label, showNamespace = true }: { projects: Project[]; label: string; showNamespace?: boolean }) {
  return (
    <ActionList aria-label={label} showDividers className={styles.list}>
      {projects.map((project) => (
        <ActionList.LinkItem key={project.id} as={RouterLink} to={urls.project(project.path_with_namespace)}>
          <ActionList.LeadingVisual>
            <EntityAvatar name={project.name} id={project.id} src={null} size={32} />
          </ActionList.LeadingVisual>
          <span className={styles.name}>
            {showNamespace ? <span className={styles.namespace}>{project.namespace.name} / </span> : null}
            {project.name}
          </span>{' '}
          <VisibilityIcon visibility={project.visibility} />
          {project.archived ? <Label variant="attention">Archived</Label> : null}
          {project.description ? (
            <ActionList.Description variant="block">{project.description}</ActionList.Description>
          ) : null}
          <ActionList.TrailingVisual>
            <span className={styles.updated}>
              Updated <TimeAgo date={project.last_activity_at} />
            </span>
          </ActionList.TrailingVisual>
        </ActionList.LinkItem>
      ))}
    </ActionList>
  );
}
