import { AlertFillIcon, CheckCircleFillIcon, GitMergeIcon, GitPullRequestClosedIcon, InfoIcon, XCircleFillIcon } from '@primer/octicons-react';
import { Spinner } from '@primer/react';
import styles from './MergeWidget.module.css';

export type Status = 'success' | 'failed' | 'warning' | 'loading' | 'merged' | 'closed' | 'info';

const LABELS: Record<Status, string> = {
  success: 'Success',
  failed: 'Failed',
  warning: 'Warning',
  loading: 'Loading',
  merged: 'Merged',
  closed: 'Closed',
  info: 'Information',
};

/** The status icon at the start of a widget row; its state is also given in words to screen readers. */
export function StatusIcon({ status }: { status: Status }) {
  const label = LABELS[status];
  if (status === 'loading') {
    return (
      <span className={styles.icon}>
        <Spinner size="small" srText={label} />
      </span>
    );
  }
  const [Icon, tone] =
    status === 'success'
      ? [CheckCircleFillIcon, styles.success]
      : status === 'failed'
        ? [XCircleFillIcon, styles.failed]
        : status === 'warning'
          ? [AlertFillIcon, styles.warning]
          : status === 'merged'
            ? [GitMergeIcon, styles.merged]
            : status === 'closed'
              ? [GitPullRequestClosedIcon, styles.failed]
              : [InfoIcon, styles.neutral];
  return (
    <span className={`${styles.icon} ${tone}`} role="img" aria-label={label}>
      <Icon size={16} />
    </span>
  );
}
