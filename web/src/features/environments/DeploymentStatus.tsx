import { ciStatusOf, CiStatusBadge } from '../pipelines';
import type { Deployment } from './api';

export const deploymentStatusText = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

/** A deployment's status as GitLab's environments pages show it: the CI badge with the capitalised status. */
export function DeploymentStatus({ status }: { status: Deployment['status'] }) {
  const text = deploymentStatusText(status);
  return <CiStatusBadge status={{ ...ciStatusOf(status), text, label: text, tooltip: text }} />;
}
