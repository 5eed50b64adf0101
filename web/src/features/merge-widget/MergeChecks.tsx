import { ChevronDownIcon, ChevronUpIcon } from '@primer/octicons-react';
import { Button, IconButton } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import type { MergeabilityCheck, MergeabilityCheckStatus } from '@tributary/contracts/merge-widget';
import { useId, useState, type ReactNode } from 'react';
import { LinkButton } from '../../components/AppLink';
import { checkMessage, hasHiddenChecks, summaryIcon, summaryText, visibleChecks } from './merge-checks';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';
import { StatusIcon, type Status } from './StatusIcon';

const ROW_STATUS: Record<Exclude<MergeabilityCheckStatus, 'INACTIVE'>, Status> = {
  CHECKING: 'loading',
  FAILED: 'failed',
  WARNING: 'warning',
  SUCCESS: 'success',
};

/** A failed check's way out, where the widget has one. */
function CheckAction({ check, editPath, onMarkReady, markingReady }: { check: MergeabilityCheck; editPath: string | null; onMarkReady: (() => void) | null; markingReady: boolean }): ReactNode {
  if (check.status !== 'FAILED') return null;
  if (check.identifier === 'DRAFT_STATUS' && onMarkReady) {
    return (
      <Button size="small" loading={markingReady} onClick={onMarkReady}>
        {t(MSG.markAsReady)}
      </Button>
    );
  }
  if (check.identifier === 'TITLE_REGEX' && editPath) {
    return (
      <LinkButton to={editPath} size="small">
        {t(MSG.editMergeRequest)}
      </LinkButton>
    );
  }
  return null;
}

/**
 * The merge checks block: a summary line and the list of checks, collapsed to
 * the failed and checking ones until expanded. Every failing check shows, not only the
 * first (GitLab's users asked for that).
 */
export function MergeChecks({
  checks,
  canMerge,
  editPath,
  onMarkReady,
  markingReady,
}: {
  checks: MergeabilityCheck[];
  canMerge: boolean;
  editPath: string | null;
  onMarkReady: (() => void) | null;
  markingReady: boolean;
}) {
  const [collapsed, setCollapsed] = useState(true);
  const listId = useId();
  const rows = visibleChecks(checks, collapsed);
  const expandable = hasHiddenChecks(checks);
  return (
    <div role="group" aria-label="Merge checks">
      <div className={styles.panel}>
        <StatusIcon status={summaryIcon(checks)} />
        <div className={styles.panelBody}>
          <strong>{summaryText(checks, canMerge)}</strong>
        </div>
        {expandable ? (
          <IconButton
            icon={collapsed ? ChevronDownIcon : ChevronUpIcon}
            size="small"
            variant="invisible"
            aria-label={t(collapsed ? MSG.expandChecks : MSG.collapseChecks)}
            aria-expanded={!collapsed}
            aria-controls={listId}
            onClick={() => setCollapsed((value) => !value)}
          />
        ) : null}
      </div>
      {rows.length > 0 ? (
        <ul className={styles.checksList} id={listId} aria-label="Merge check results">
          {rows.map((check) => (
            <li key={check.identifier} className={styles.checkRow}>
              <StatusIcon status={ROW_STATUS[check.status as Exclude<MergeabilityCheckStatus, 'INACTIVE'>]} />
              <span className={styles.checkMessage}>{checkMessage(check.identifier)}</span>
              <CheckAction check={check} editPath={editPath} onMarkReady={onMarkReady} markingReady={markingReady} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
