import type { ReactNode } from 'react';
import styles from './MergeWidget.module.css';
import { StatusIcon, type Status } from './StatusIcon';

/** One row of the widget's main area: a status icon, what it says, and its actions. */
export function StatePanel({ status, title, children, actions, label }: { status: Status; title: ReactNode; children?: ReactNode; actions?: ReactNode; label?: string }) {
  return (
    <div className={styles.panel} aria-label={label} role={label ? 'group' : undefined}>
      <StatusIcon status={status} />
      <div className={styles.panelBody}>
        <div className={styles.panelTitle}>{title}</div>
        {children}
      </div>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </div>
  );
}
