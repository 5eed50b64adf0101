import { Link, StateLabel } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import type { MergeRequestWidgetData } from '@tributary/contracts/merge-widget';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';

const STATE_LABEL = {
  opened: { status: 'pullOpened', text: 'Open' },
  locked: { status: 'pullOpened', text: 'Open' },
  merged: { status: 'pullMerged', text: 'Merged' },
  closed: { status: 'pullClosed', text: 'Closed' },
} as const;

/** The merge requests this one depends on, each with its state and a link. */
export function BlockingMergeRequests({ blocking }: { blocking: MergeRequestWidgetData['blockingMergeRequests']['nodes'] }) {
  if (blocking.length === 0) return null;
  return (
    <section className={styles.blocking} aria-labelledby="blocking-merge-requests">
      <h3 id="blocking-merge-requests">{t(MSG.blockingHeading)}</h3>
      <ul>
        {blocking.map((item) => {
          const label = STATE_LABEL[item.state];
          return (
            <li key={item.reference}>
              <StateLabel status={label.status} size="small">
                {label.text}
              </StateLabel>
              <Link href={item.webUrl}>
                <span className={styles.muted}>{item.reference}</span> {item.title}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
