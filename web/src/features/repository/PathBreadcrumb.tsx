import { Link as RouterLink } from 'react-router-dom';
import { urls } from '../../lib/routes';
import { pathCrumbs } from '../../lib/tree';
import styles from './PathBreadcrumb.module.css';

/** `project / src / lib / file.ts`, every part but the last a link to its tree. */
export function PathBreadcrumb({ fullPath, projectPath, ref, path }: { fullPath: string; projectPath: string; ref: string; path: string }) {
  const crumbs = pathCrumbs(path);
  return (
    <nav aria-label="File path" className={styles.crumbs}>
      <RouterLink to={urls.tree(fullPath, ref)} className={styles.link}>
        {projectPath}
      </RouterLink>
      {crumbs.map((crumb, index) => (
        <span key={crumb.path}>
          <span className={styles.separator} aria-hidden="true">
            /
          </span>
          {index === crumbs.length - 1 ? (
            <strong aria-current="page">{crumb.name}</strong>
          ) : (
            <RouterLink to={urls.tree(fullPath, ref, crumb.path)} className={styles.link}>
              {crumb.name}
            </RouterLink>
          )}
        </span>
      ))}
    </nav>
  );
}
