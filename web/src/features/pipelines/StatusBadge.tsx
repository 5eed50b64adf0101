import { AlertIcon, CheckCircleIcon, CircleIcon, CircleSlashIcon, ClockIcon, GearIcon, type Icon, SkipIcon, SyncIcon, XCircleIcon } from '@primer/octicons-react';
import type { DetailedStatus } from './api';
import styles from './Pipelines.module.css';

/** GitLab's status icons (`detailed_status.icon`) as octicons, with the tone of their group. */
const ICONS: Record<string, { icon: Icon; tone: string }> = {
  status_success: { icon: CheckCircleIcon, tone: 'success' },
  status_failed: { icon: XCircleIcon, tone: 'danger' },
  status_warning: { icon: AlertIcon, tone: 'attention' },
  status_running: { icon: SyncIcon, tone: 'accent' },
  status_pending: { icon: ClockIcon, tone: 'attention' },
  status_preparing: { icon: ClockIcon, tone: 'attention' },
  status_canceled: { icon: CircleSlashIcon, tone: 'muted' },
  status_skipped: { icon: SkipIcon, tone: 'muted' },
  status_manual: { icon: GearIcon, tone: 'muted' },
  status_scheduled: { icon: ClockIcon, tone: 'muted' },
  status_created: { icon: CircleIcon, tone: 'muted' },
  // a deployment waiting for an approval (the environments pages share this badge)
  status_blocked: { icon: AlertIcon, tone: 'attention' },
};

const FALLBACK = { icon: CircleIcon, tone: 'muted' };

/** The status icon alone, named by GitLab's tooltip (e.g. "failed - (script failure)"). */
export function StatusIcon({ status, size = 16 }: { status: DetailedStatus; size?: number }) {
  const { icon: IconComponent, tone } = ICONS[status.icon] ?? FALLBACK;
  return (
    <span className={`${styles.statusIcon} ${styles[`tone-${tone}`] ?? ''}`} role="img" aria-label={`Status: ${status.tooltip || status.label}`} title={status.tooltip || status.label}>
      <IconComponent size={size} aria-hidden="true" />
    </span>
  );
}

/** GitLab's CI badge: the icon and the status text ("passed", "failed", "blocked"). */
export function StatusBadge({ status }: { status: DetailedStatus }) {
  const { icon: IconComponent, tone } = ICONS[status.icon] ?? FALLBACK;
  return (
    <span className={`${styles.badge} ${styles[`tone-${tone}`] ?? ''}`} title={status.label} data-status={status.group}>
      <IconComponent size={14} aria-hidden="true" />
      <span>{status.text}</span>
    </span>
  );
}

/** A job without `detailed_status` (a trigger job): the same look from its bare status. */
export function fallbackStatus(status: string): DetailedStatus {
  const icon = `status_${status === 'waiting_for_resource' ? 'pending' : status === 'canceling' ? 'canceled' : status}`;
  const text = status === 'success' ? 'passed' : status;
  return { icon, text, label: text, group: status, tooltip: text, has_details: false, details_path: null };
}
