import { FileDiffIcon } from '@primer/octicons-react';
import { n } from '@tributary/contracts/i18n';
import type { DiffTotals } from '../../lib/diff-file';
import styles from './DiffStats.module.css';

/** File count, added and removed lines. */
export function DiffStats({ totals, partial }: { totals: DiffTotals; partial?: boolean }) {
  return (
    <span className={styles.stats}>
      <FileDiffIcon aria-hidden="true" />
      <strong>
        {n('%d file', '%d files', totals.files)}
        {partial ? '…' : ''}
      </strong>
      <span className={styles.added} aria-hidden="true">
        +{totals.added}
      </span>
      <span className={styles.removed} aria-hidden="true">
        −{totals.removed}
      </span>
      <span className="visually-hidden">
        {n('%d line', '%d lines', totals.added)} added, {n('%d line', '%d lines', totals.removed)} removed
      </span>
    </span>
  );
}
