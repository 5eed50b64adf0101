import { useNavigate } from 'react-router-dom';
import type { Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { CodeOwnersPanel } from './CodeOwnersPanel';
import { FileViewer } from './FileViewer';
import { PathBreadcrumb } from './PathBreadcrumb';
import { RefGate } from './RefGate';
import { RefSwitcher } from './RefSwitcher';
import styles from './RepositoryBrowser.module.css';

/** `/<project path>/-/blob/<ref>/<file…>`. */
export function BlobPage({ project, refAndPath }: { project: Project; refAndPath: string }) {
  const navigate = useNavigate();
  const fullPath = project.path_with_namespace;
  return (
    <RefGate projectId={project.id} refAndPath={refAndPath}>
      {(ref, path) => (
        <div className={styles.browser}>
          <div className={styles.toolbar}>
            <RefSwitcher projectId={project.id} current={ref} onSelect={(next) => void navigate(urls.blob(fullPath, next, path))} />
            <PathBreadcrumb fullPath={fullPath} projectPath={project.path} ref={ref} path={path} />
          </div>
          <CodeOwnersPanel fullPath={fullPath} ref={ref} path={path} />
          <FileViewer projectId={project.id} fullPath={fullPath} ref={ref} path={path} />
        </div>
      )}
    </RefGate>
  );
}
