import { Button, Checkbox, CheckboxGroup, FormControl, TextInput } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormError, fieldError } from '../../components/FormError';
import type { PersonalAccessToken } from '../../lib/gitlab-types';
import { addDays, localDayKey } from '../../lib/time';
import { createTokenMutation, tokenKeys } from './api';
import { DEFAULT_TOKEN_LIFETIME_DAYS, MAX_TOKEN_LIFETIME_DAYS, TOKEN_SCOPES } from './scopes';
import styles from './PersonalAccessTokensPage.module.css';

/** "Add a personal access token": name, expiry date and scopes. */
export function NewTokenForm({ onCreated, onCancel }: { onCreated: (token: PersonalAccessToken) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const today = new Date();
  const [name, setName] = useState('');
  const [expiresAt, setExpiresAt] = useState(localDayKey(addDays(today, DEFAULT_TOKEN_LIFETIME_DAYS)));
  const [scopes, setScopes] = useState<string[]>([]);
  const create = useMutation({
    ...createTokenMutation(),
    onSuccess: (token) => {
      void queryClient.invalidateQueries({ queryKey: tokenKeys.all });
      onCreated(token);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name: name.trim(), scopes, expires_at: expiresAt });
  }

  return (
    <form className={styles.form} onSubmit={submit} aria-label="Add a personal access token" noValidate>
      <FormError error={create.error} title="The token could not be created." />
      <FormControl required>
        <FormControl.Label requiredIndicator={false}>Token name</FormControl.Label>
        <TextInput block autoFocus value={name} onChange={(event) => setName(event.target.value)} />
        <FormControl.Caption>For example, the application using the token or the purpose of the token.</FormControl.Caption>
      </FormControl>
      <FormControl required>
        <FormControl.Label requiredIndicator={false}>Expiration date</FormControl.Label>
        <TextInput
          type="date"
          value={expiresAt}
          min={localDayKey(addDays(today, 1))}
          max={localDayKey(addDays(today, MAX_TOKEN_LIFETIME_DAYS))}
          onChange={(event) => setExpiresAt(event.target.value)}
        />
        {fieldError(create.error, 'expires_at') ? (
          <FormControl.Validation variant="error">{fieldError(create.error, 'expires_at')}</FormControl.Validation>
        ) : null}
      </FormControl>
      <CheckboxGroup>
        <CheckboxGroup.Label>Select scopes</CheckboxGroup.Label>
        <CheckboxGroup.Caption>Scopes set the permission levels granted to the token.</CheckboxGroup.Caption>
        {TOKEN_SCOPES.map(({ scope, description }) => (
          <FormControl key={scope}>
            <Checkbox
              value={scope}
              checked={scopes.includes(scope)}
              onChange={(event) =>
                setScopes((current) => (event.target.checked ? [...current, scope] : current.filter((s) => s !== scope)))
              }
            />
            <FormControl.Label>{scope}</FormControl.Label>
            <FormControl.Caption>{description}</FormControl.Caption>
          </FormControl>
        ))}
      </CheckboxGroup>
      <div className={styles.actions}>
        <Button type="submit" variant="primary" loading={create.isPending} disabled={!name.trim() || scopes.length === 0 || !expiresAt}>
          Create token
        </Button>
        <Button type="button" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
