import { QuestionIcon } from '@primer/octicons-react';
import { IconButton } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { LinkButton } from '../../../components/AppLink';
import { urls } from '../../../lib/routes';
import { MSG } from '../messages';
import styles from '../MergeWidget.module.css';
import { RichMessage } from '../RichMessage';
import { StatePanel } from '../StatePanel';
import { StatusIcon } from '../StatusIcon';
import branchName from '../../../components/BranchName.module.css';

/** The widget's smaller state panels: one sentence each, some with one action. */

export function ArchivedPanel() {
  return <StatePanel status="failed" title={<strong>{t(MSG.archived)}</strong>} />;
}

export function CheckingPanel() {
  return <StatePanel status="loading" title={t(MSG.checking)} />;
}

export function PreparingPanel() {
  return <StatePanel status="loading" title={t(MSG.preparing)} />;
}

export function NothingToMergePanel() {
  return (
    <div className={styles.panel}>
      <StatusIcon status="info" />
      <div className={styles.panelBody}>
        <strong>{t(MSG.nothingToMerge)}</strong>
        <span className={styles.muted}>{t(MSG.nothingToMergeHelp)}</span>
      </div>
    </div>
  );
}

/** The head moved since the page showed it: merging is blocked until the changes are reviewed. */
export function ShaMismatchPanel({ fullPath, iid }: { fullPath: string; iid: number }) {
  return (
    <StatePanel
      status="failed"
      title={<strong>{t(MSG.shaMismatch)}</strong>}
      actions={
        <LinkButton to={urls.mergeRequest(fullPath, iid, 'diffs')} size="small">
          {t(MSG.reviewChanges)}
        </LinkButton>
      }
    />
  );
}

/** 'The {source or target} branch {name} does not exist.' 'Please restore it or use a different {type} branch.' */
export function MissingBranchPanel({ type, name }: { type: 'source' | 'target'; name: string }) {
  const manual = t(MSG.missingBranchManual, { type });
  return (
    <StatePanel
      status="failed"
      title={
        <span>
          <strong>
            <RichMessage message={MSG.missingBranch} values={{ type }} slots={{ name: <code className={branchName.branch}>{name}</code> }} />
          </strong>{' '}
          {t(MSG.missingBranchRestore, { type })}
        </span>
      }
      actions={<IconButton icon={QuestionIcon} size="small" variant="invisible" aria-label={manual} />}
    />
  );
}
