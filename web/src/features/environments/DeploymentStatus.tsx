import { AlertIcon, CheckCircleIcon, CircleIcon, CircleSlashIcon, type Icon, SkipIcon, SyncIcon, XCircleIcon } from '@primer/octicons-react';
import { Label } from '@primer/react';
import type { Deployment } from './api';

/** A deployment's status as GitLab's environments pages show it: an icon and the capitalised status. */
const LOOKS: Record<Deployment['status'], { icon: Icon; variant: 'success' | 'danger' | 'accent' | 'secondary' | 'attention' }> = {
  success: { icon: CheckCircleIcon, variant: 'success' },
  failed: { icon: XCircleIcon, variant: 'danger' },
  running: { icon: SyncIcon, variant: 'accent' },
  created: { icon: CircleIcon, variant: 'secondary' },
  canceled: { icon: CircleSlashIcon, variant: 'secondary' },
  skipped: { icon: SkipIcon, variant: 'secondary' },
  blocked: { icon: AlertIcon, variant: 'attention' },
};

export const deploymentStatusText = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

export function DeploymentStatus({ status }: { status: Deployment['status'] }) {
  const look = LOOKS[status] ?? LOOKS.created;
  const IconComponent = look.icon;
  return (
    <Label variant={look.variant} data-status={status}>
      <IconComponent size={12} aria-hidden="true" />
      &nbsp;{deploymentStatusText(status)}
    </Label>
  );
}
