import { Link as RouterLink } from 'react-router-dom';
import { TimeAgo } from '../../components/TimeAgo';
import { urls } from '../../lib/routes';
import type { Deployment } from './api';
import { DeploymentStatus } from './DeploymentStatus';
import styles from './Environments.module.css';

/**
 * A deployment's cells in the environments list and an environment's deployments: the deployment
 * (#iid, status, who), its job, its commit, and when it was last updated. Four dashes where there
 * is no deployment yet.
 */
export function DeploymentCells({ fullPath, deployment }: { fullPath: string; deployment: Deployment | null }) {
  if (!deployment) {
    return (
      <>
        <td className={styles.muted}>No deployments yet</td>
        <td className={styles.muted}>—</td>
        <td className={styles.muted}>—</td>
        <td className={styles.muted}>—</td>
      </>
    );
  }
  const job = deployment.deployable;
  return (
    <>
      <td>
        <div className={styles.cellStack}>
          <span>
            <DeploymentStatus status={deployment.status} /> <span className={styles.muted}>#{deployment.iid}</span>
          </span>
          {deployment.user ? <span className={styles.muted}>by {deployment.user.name}</span> : null}
        </div>
      </td>
      <td>
        {job ? (
          <RouterLink to={urls.job(fullPath, job.id)}>
            {job.name} #{job.id}
          </RouterLink>
        ) : (
          <span className={styles.muted}>—</span>
        )}
      </td>
      <td>
        <div className={styles.cellStack}>
          <span className={styles.mono}>
            {deployment.ref} ·{' '}
            <RouterLink to={urls.commit(fullPath, deployment.sha)} className={styles.mono}>
              {deployment.sha.slice(0, 8)}
            </RouterLink>
          </span>
          {job?.commit ? <span className={styles.muted}>{job.commit.title}</span> : null}
        </div>
      </td>
      <td className={styles.muted}>
        <TimeAgo date={deployment.updated_at} />
      </td>
    </>
  );
}
