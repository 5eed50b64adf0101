import { Button, Dialog, FormControl, TextInput } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError, fieldError } from '../../components/FormError';
import { createEnvironmentMutation, environmentKeys, type Environment } from './api';
import styles from './Environments.module.css';

/** GitLab's "New environment" form: a name, and optionally the URL where it is reached. */
export function NewEnvironmentDialog({ projectId, onClose, onCreated }: { projectId: number; onClose: () => void; onCreated: (environment: Environment) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [externalUrl, setExternalUrl] = useState('');
  const [tried, setTried] = useState(false);
  const create = useMutation({
    ...createEnvironmentMutation(projectId),
    onSuccess: (environment) => {
      void queryClient.invalidateQueries({ queryKey: environmentKeys.all(projectId) });
      onCreated(environment);
    },
  });
  const nameMissing = tried && name.trim() === '';
  return (
    <Dialog title="New environment" onClose={onClose} width="medium">
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (name.trim() === '') return;
          create.mutate({ name: name.trim(), external_url: externalUrl.trim() || undefined });
        }}
      >
        <FormError error={create.error} title="The environment could not be created." />
        <FormControl required>
          <FormControl.Label>Name</FormControl.Label>
          <TextInput block autoFocus value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
          {nameMissing ? <FormControl.Validation variant="error">Enter a name for the environment.</FormControl.Validation> : null}
          {fieldError(create.error, 'name') ? <FormControl.Validation variant="error">{fieldError(create.error, 'name')}</FormControl.Validation> : null}
        </FormControl>
        <FormControl>
          <FormControl.Label>External URL</FormControl.Label>
          <TextInput block type="url" placeholder="https://" value={externalUrl} onChange={(event) => setExternalUrl(event.target.value)} autoComplete="off" />
          {fieldError(create.error, 'external_url') ? <FormControl.Validation variant="error">{fieldError(create.error, 'external_url')}</FormControl.Validation> : null}
        </FormControl>
        <div className={styles.formButtons}>
          <Button type="submit" variant="primary" loading={create.isPending}>
            Save
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Dialog>
  );
}
