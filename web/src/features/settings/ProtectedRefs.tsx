import { Button, FormControl, Select, Spinner, Text, TextInput } from '@primer/react';
import { useMutation, useQuery, useQueryClient, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query';
import { AccessLevel } from '@tributary/contracts/access-levels';
import { useState, type ReactNode } from 'react';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import { SettingsForm } from './SettingsSection';
import styles from './Settings.module.css';

/**
 * What the Repository settings' protected branches and protected tags sections share: GitLab's
 * access level choices, the name-or-wildcard field, the protect form's state and the list of
 * protected refs with its Unprotect buttons.
 */

/** GitLab's choices for who may push, merge (branches) or create (tags) on a protected ref. */
export const PROTECTED_REF_ACCESS_CHOICES = [
  { value: AccessLevel.Maintainer, label: 'Maintainers' },
  { value: AccessLevel.Developer, label: 'Developers + Maintainers' },
  { value: AccessLevel.NoAccess, label: 'No one' },
] as const;

/** A new rule starts with Maintainers, as GitLab's form does. */
export const DEFAULT_PROTECTED_REF_ACCESS = AccessLevel.Maintainer;

export function AccessLevelSelect({ label, value, onChange }: { label: string; value: number; onChange: (value: number) => void }) {
  return (
    <FormControl>
      <FormControl.Label>{label}</FormControl.Label>
      <Select value={String(value)} onChange={(event) => onChange(Number(event.target.value))}>
        {PROTECTED_REF_ACCESS_CHOICES.map((choice) => (
          <Select.Option key={choice.value} value={String(choice.value)}>
            {choice.label}
          </Select.Option>
        ))}
      </Select>
    </FormControl>
  );
}

/** The protected ref's name: a branch or tag name, or a wildcard such as `release/*`. */
export function RefPatternField({ kind, example, placeholder, value, onChange, showBlank }: {
  kind: 'branch' | 'tag';
  example: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  /** the form was submitted blank: say what it needs */
  showBlank: boolean;
}) {
  return (
    <FormControl required>
      <FormControl.Label requiredIndicator={false}>{kind === 'branch' ? 'Branch' : 'Tag'}</FormControl.Label>
      <TextInput value={value} onChange={(event) => onChange(event.target.value)} placeholder={placeholder} />
      {showBlank ? (
        <FormControl.Validation variant="error">{`Please enter a ${kind} name or a wildcard such as ${example}.`}</FormControl.Validation>
      ) : (
        <FormControl.Caption>{`A ${kind} name, or a wildcard such as ${example}.`}</FormControl.Caption>
      )}
    </FormControl>
  );
}

/**
 * A protect form's state: the name, whether a blank submit was tried, the saved notice; after a
 * rule is created the name is cleared and the list (`listKey`) is read again.
 */
export function useProtectForm<Body, Created extends { name: string }>({ mutation, listKey, savedText }: {
  mutation: UseMutationOptions<Created, Error, Body>;
  listKey: readonly unknown[];
  savedText: (created: Created) => string;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const protect = useMutation({
    ...mutation,
    onMutate: () => setSaved(null),
    onSuccess: (created) => {
      setSaved(savedText(created));
      setName('');
      setTried(false);
      void queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
  const blank = name.trim() === '';
  return {
    name,
    setName,
    showBlank: tried && blank,
    saved,
    protect,
    /** Submits `body(name)` unless the name is blank (then the field says so). */
    submit(body: (name: string) => Body) {
      setTried(true);
      if (!blank) protect.mutate(body(name.trim()));
    },
  };
}

/** The form around a protect form's fields: GitLab's "Protect" button, saving, error and notice. */
export function ProtectForm({ label, form, onSubmit, children }: {
  label: string;
  form: { protect: { isPending: boolean; error: unknown }; saved: string | null };
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <SettingsForm label={label} submitLabel="Protect" saving={form.protect.isPending} error={form.protect.error} saved={form.saved} onSubmit={onSubmit}>
      {children}
    </SettingsForm>
  );
}

/** Who may act on a protected ref, as GitLab describes its access levels ("No one" when none). */
export const describeAccess = (levels: readonly { access_level_description: string }[]) => levels.map((level) => level.access_level_description).join(', ') || 'No one';

/**
 * The protected refs of a project with their Unprotect buttons: loading, error and empty states,
 * and the unprotect error. `confirmUnprotect`, when given, asks before unprotecting.
 */
export function ProtectedRefList<Ref extends { name: string }, Key extends readonly unknown[]>({ noun, query, unprotectMutation, listKey, keyOf, details, confirmUnprotect }: {
  noun: 'branches' | 'tags';
  query: UseQueryOptions<Ref[], Error, Ref[], Key>;
  unprotectMutation: UseMutationOptions<void, Error, string>;
  listKey: readonly unknown[];
  keyOf: (ref: Ref) => string | number;
  details: (ref: Ref) => ReactNode;
  confirmUnprotect?: (name: string) => Promise<boolean>;
}) {
  const queryClient = useQueryClient();
  const list = useQuery(query);
  const unprotect = useMutation({
    ...unprotectMutation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
  const singular = noun === 'branches' ? 'branch' : 'tag';
  if (list.isPending) return <Spinner size="small" aria-label={`Loading protected ${noun}`} />;
  if (list.isError) return <PageError title={`Protected ${noun} could not be loaded.`} error={list.error} onRetry={() => void list.refetch()} />;
  if (list.data.length === 0) return <Text className={styles.muted}>{`No ${noun} are protected.`}</Text>;
  return (
    <>
      <FormError error={unprotect.error} title={`The ${singular} could not be unprotected.`} />
      <ul className={styles.list} aria-label={`Protected ${noun}`}>
        {list.data.map((ref) => (
          <li key={keyOf(ref)} className={styles.listRow}>
            <div>
              <strong>{ref.name}</strong>
              <div className={styles.muted}>{details(ref)}</div>
            </div>
            <Button
              variant="danger"
              size="small"
              aria-label={`Unprotect ${ref.name}`}
              loading={unprotect.isPending && unprotect.variables === ref.name}
              onClick={async () => {
                if (!confirmUnprotect || (await confirmUnprotect(ref.name))) unprotect.mutate(ref.name);
              }}
            >
              Unprotect
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}
