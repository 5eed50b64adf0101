import { PlusIcon } from '@primer/octicons-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import type { Project } from '../../lib/gitlab-types';
import { DEVELOPER } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { LastCommit } from './LastCommit';
import { PathBreadcrumb } from './PathBreadcrumb';
import { ReadmePanel } from './ReadmePanel';
import { RefSwitcher } from './RefSwitcher';
import styles from './RepositoryBrowser.module.css';
import { TreeTable } from './TreeTable';

/** The file browser of one directory at one ref: ref switcher, path, last commit, entries, README. */
export function RepositoryBrowser({ project, ref, path, aside }: { project: Project; ref: string; path: string; aside?: ReactNode }) {
  const navigate = useNavigate();
  const user = useOptionalUser();
  const fullPath = project.path_with_namespace;
  // GitLab offers New file to Developers and above; the form checks the branch's push rule.
  const canAddFiles = user !== null && userProjectLevel(project, user) >= DEVELOPER && !project.archived;
  return (
    <div className={styles.browser}>
      <div className={styles.toolbar}>
        <RefSwitcher projectId={project.id} current={ref} onSelect={(next) => void navigate(urls.tree(fullPath, next, path))} />
        <PathBreadcrumb fullPath={fullPath} projectPath={project.path} ref={ref} path={path} />
        {canAddFiles ? (
          <LinkButton to={urls.newFile(fullPath, ref, path)} leadingVisual={PlusIcon} size="small">
            New file
          </LinkButton>
        ) : null}
        {aside ? <div className={styles.aside}>{aside}</div> : null}
      </div>
      <div className={styles.box}>
        <LastCommit projectId={project.id} fullPath={fullPath} ref={ref} path={path} />
        <TreeTable projectId={project.id} fullPath={fullPath} ref={ref} path={path} />
      </div>
      <ReadmePanel projectId={project.id} fullPath={fullPath} ref={ref} path={path} />
    </div>
  );
}
