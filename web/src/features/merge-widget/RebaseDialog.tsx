import { Dialog } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { MSG } from './messages';

/** 'Rebase source branch?' with Cancel and Rebase; Cancel has the initial focus. */
export function RebaseDialog({ onCancel, onRebase }: { onCancel: () => void; onRebase: () => void }) {
  return (
    <Dialog
      title={t(MSG.rebaseDialogTitle)}
      onClose={onCancel}
      width="medium"
      footerButtons={[
        { buttonType: 'default', content: t(MSG.cancel), onClick: onCancel, autoFocus: true },
        { buttonType: 'primary', content: t(MSG.rebase), onClick: onRebase },
      ]}
    >
      <p>{t(MSG.rebaseDialogBody)}</p>
    </Dialog>
  );
}
