import { ChevronDownIcon, ChevronRightIcon } from '@primer/octicons-react';
import { IconButton, Label } from '@primer/react';
import { useMemo, useState } from 'react';
import type { CommitDiff } from '../../lib/gitlab-types';
import { parseDiffHunks, unifiedLines } from '../../lib/diff-hunks';
import styles from './DiffFile.module.css';

function fileStatus(diff: CommitDiff): { label: string; variant: 'success' | 'danger' | 'attention' } | null {
  if (diff.new_file) return { label: 'Added', variant: 'success' };
  if (diff.deleted_file) return { label: 'Deleted', variant: 'danger' };
  if (diff.renamed_file) return { label: 'Renamed', variant: 'attention' };
  return null;
}

/** One file of a commit's diff, unified, with old and new line numbers. */
export function DiffFile({ diff }: { diff: CommitDiff }) {
  const [open, setOpen] = useState(true);
  const parsed = useMemo(() => parseDiffHunks(diff.diff), [diff.diff]);
  const lines = useMemo(() => unifiedLines(parsed), [parsed]);
  const status = fileStatus(diff);
  const path = diff.renamed_file ? `${diff.old_path} → ${diff.new_path}` : diff.new_path;

  return (
    <section className={styles.file} aria-label={path}>
      <header className={styles.header}>
        <IconButton
          icon={open ? ChevronDownIcon : ChevronRightIcon}
          aria-label={open ? `Collapse ${diff.new_path}` : `Expand ${diff.new_path}`}
          aria-expanded={open}
          variant="invisible"
          size="small"
          onClick={() => setOpen(!open)}
        />
        <span className={styles.path}>{path}</span>
        {status ? <Label variant={status.variant}>{status.label}</Label> : null}
        <span className={styles.stats}>
          <span className={styles.additions}>+{parsed.added}</span> <span className={styles.deletions}>−{parsed.removed}</span>
        </span>
      </header>
      {open ? (
        diff.too_large || diff.collapsed ? (
          <p className={styles.notice}>This diff is too large to display.</p>
        ) : lines.length === 0 ? (
          <p className={styles.notice}>{diff.b_mode !== diff.a_mode && !diff.new_file && !diff.deleted_file ? `File mode changed from ${diff.a_mode} to ${diff.b_mode}.` : 'No changes to show (binary file or empty diff).'}</p>
        ) : (
          <div className={styles.scroller}>
            <table className={styles.table}>
              <tbody>
                {lines.map((line, index) =>
                  line.type === 'hunk' || line.type === 'note' ? (
                    <tr key={index} className={styles[line.type]}>
                      <td className={styles.num} />
                      <td className={styles.num} />
                      <td className={styles.code}>{line.text}</td>
                    </tr>
                  ) : (
                    <tr key={index} className={styles[line.type]}>
                      <td className={styles.num}>{line.oldLine ?? ''}</td>
                      <td className={styles.num}>{line.newLine ?? ''}</td>
                      <td className={styles.code}>
                        <span className={styles.marker} aria-hidden="true">
                          {line.type === 'add' ? '+' : line.type === 'delete' ? '-' : ' '}
                        </span>
                        {line.text}
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        )
      ) : null}
    </section>
  );
}
