import { AnchoredOverlay, Button, FormControl, Textarea, Tooltip } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { useState } from 'react';
import styles from './Suggestions.module.css';

/** GitLab's default message when none is given (Gitlab::Suggestions::CommitMessage). */
const DEFAULT_MESSAGE = 'Apply %{suggestions_count} suggestion(s) to %{files_count} file(s)';

/** 'Apply suggestion': a dropdown with an optional commit message and the Apply button. */
export function ApplySuggestion({ reason, disabled, pending, onApply }: { reason: string | null; disabled: boolean; pending: boolean; onApply: (message?: string) => void }) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  if (reason) {
    // not appliable: the button says why instead of opening
    return (
      <Tooltip text={reason} direction="n">
        <Button size="small" variant="primary" inactive aria-disabled>
          {t('Apply suggestion')}
        </Button>
      </Tooltip>
    );
  }
  const submit = () => {
    setOpen(false);
    onApply(message.trim() === '' ? undefined : message);
  };
  return (
    <AnchoredOverlay
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      renderAnchor={(props) => (
        <Button {...props} size="small" variant="primary" disabled={disabled || pending}>
          {pending ? t('Applying suggestion...') : t('Apply suggestion')}
        </Button>
      )}
    >
      <div className={styles.applyForm}>
        <FormControl>
          <FormControl.Label>{t('Commit message')}</FormControl.Label>
          <Textarea
            block
            rows={3}
            value={message}
            placeholder={DEFAULT_MESSAGE}
            onChange={(event) => setMessage(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit();
            }}
          />
        </FormControl>
        <Button variant="primary" onClick={submit}>
          {t('Apply')}
        </Button>
      </div>
    </AnchoredOverlay>
  );
}
