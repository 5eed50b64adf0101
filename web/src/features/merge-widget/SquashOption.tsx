import { LockIcon, QuestionIcon } from '@primer/octicons-react';
import { Checkbox, FormControl, IconButton } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { useId, useState } from 'react';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';

/**
 * 'Squash commits' with its help; read-only, with a tooltip saying why, when the project
 * setting forces it (seed 000 §2).
 */
export function SquashOption({ checked, readOnly, onChange }: { checked: boolean; readOnly: boolean; onChange: (checked: boolean) => void }) {
  const [helpOpen, setHelpOpen] = useState(false);
  const helpId = useId();
  return (
    <span className={styles.option}>
      <FormControl disabled={readOnly}>
        <Checkbox checked={checked} onChange={(event) => onChange(event.target.checked)} aria-describedby={readOnly ? `${helpId}-required` : undefined} />
        <FormControl.Label>{t(MSG.squashCommits)}</FormControl.Label>
      </FormControl>
      {readOnly ? (
        <>
          <IconButton icon={LockIcon} size="small" variant="invisible" aria-label={t(MSG.squashRequired)} />
          <span id={`${helpId}-required`} className="visually-hidden">
            {t(MSG.squashRequired)}
          </span>
        </>
      ) : null}
      <IconButton icon={QuestionIcon} size="small" variant="invisible" aria-label={t(MSG.whatIsSquashing)} aria-expanded={helpOpen} aria-controls={helpId} onClick={() => setHelpOpen((open) => !open)} />
      {helpOpen ? (
        <span id={helpId} className={styles.muted}>
          {t(MSG.squashHelp)}
        </span>
      ) : null}
    </span>
  );
}
