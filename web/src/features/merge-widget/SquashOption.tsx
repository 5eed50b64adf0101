import { LockIcon, QuestionIcon } from '@primer/octicons-react';
import { AnchoredOverlay, Checkbox, FormControl, IconButton } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { useId, useState } from 'react';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';

/**
 * 'Squash commits' with its help; read-only, with a tooltip saying why, when the project
 * setting forces it.
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
      {/* the help is a popover beside the label, not text inside it (GitLab's help popover); Escape closes it */}
      <AnchoredOverlay
        open={helpOpen}
        onOpen={() => setHelpOpen(true)}
        onClose={() => setHelpOpen(false)}
        side="outside-bottom"
        overlayProps={{ role: 'dialog', 'aria-label': t(MSG.whatIsSquashing) }}
        focusZoneSettings={{ disabled: true }}
        renderAnchor={(props) => <IconButton {...props} icon={QuestionIcon} size="small" variant="invisible" aria-label={t(MSG.whatIsSquashing)} unsafeDisableTooltip />}
      >
        <p id={helpId} className={styles.helpPopover}>
          {t(MSG.squashHelp)}
        </p>
      </AnchoredOverlay>
    </span>
  );
}
