import { Dialog, FormControl, TextInput } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { useState } from 'react';
import { APPROVALS_MSG as M } from './messages';

/**
 * The approval password modal: shown when the project requires the user's password to approve.
 * A 401 keeps it open with 'Approval password is invalid.'; other failures close it and show
 * the submit error.
 */
export function ApprovalPasswordDialog({ invalid, pending, onCancel, onApprove }: { invalid: boolean; pending: boolean; onCancel: () => void; onApprove: (password: string) => void }) {
  const [password, setPassword] = useState('');
  const submit = () => {
    if (password !== '' && !pending) onApprove(password);
  };
  return (
    <Dialog
      title={t(M.passwordTitle)}
      onClose={onCancel}
      width="medium"
      footerButtons={[
        { buttonType: 'default', content: t(M.cancel), onClick: onCancel },
        { buttonType: 'primary', content: t(M.approve), onClick: submit, disabled: password === '' || pending },
      ]}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <FormControl required>
          <FormControl.Label>{t(M.passwordLabel)}</FormControl.Label>
          <TextInput type="password" autoComplete="current-password" autoFocus block value={password} onChange={(event) => setPassword(event.target.value)} validationStatus={invalid ? 'error' : undefined} />
          {invalid ? <FormControl.Validation variant="error">{t(M.passwordInvalid)}</FormControl.Validation> : null}
        </FormControl>
      </form>
    </Dialog>
  );
}
