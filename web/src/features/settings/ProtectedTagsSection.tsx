import { Button, FormControl, Select, Spinner, Text, TextInput, useConfirm } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import type { Project } from '../../lib/gitlab-types';
import { protectedTagsQuery, protectTagMutation, settingsKeys, unprotectTagMutation, type ProtectedTag } from './api';
import styles from './Settings.module.css';
import { SettingsForm, SettingsSection } from './SettingsSection';

/** GitLab's "Allowed to create" choices for a protected tag (its valid create access levels). */
const CREATE_CHOICES = [
  { value: 40, label: 'Maintainers' },
  { value: 30, label: 'Developers + Maintainers' },
  { value: 0, label: 'No one' },
] as const;

const allowedToCreate = (tag: ProtectedTag) => tag.create_access_levels.map((level) => level.access_level_description).join(', ') || 'No one';

function ProtectedTagList({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const list = useQuery(protectedTagsQuery(project.id));
  const unprotect = useMutation({
    ...unprotectTagMutation(project.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.protectedTags(project.id) }),
  });
  if (list.isPending) return <Spinner size="small" aria-label="Loading protected tags" />;
  if (list.isError) return <PageError title="Protected tags could not be loaded." error={list.error} onRetry={() => void list.refetch()} />;
  if (list.data.length === 0) return <Text className={styles.muted}>No tags are protected.</Text>;
  return (
    <>
      <FormError error={unprotect.error} title="The tag could not be unprotected." />
      <ul className={styles.list} aria-label="Protected tags">
        {list.data.map((tag) => (
          <li key={tag.name} className={styles.listRow}>
            <div>
              <strong>{tag.name}</strong>
              <div className={styles.muted}>Allowed to create: {allowedToCreate(tag)}</div>
            </div>
            <Button
              variant="danger"
              size="small"
              aria-label={`Unprotect ${tag.name}`}
              loading={unprotect.isPending && unprotect.variables === tag.name}
              onClick={async () => {
                const yes = await confirm({
                  title: 'Unprotect tag',
                  content: `Tag ${tag.name} will be writable for developers. Are you sure?`,
                  confirmButtonContent: 'Unprotect tag',
                  confirmButtonType: 'danger',
                });
                if (yes) unprotect.mutate(tag.name);
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

function ProtectTagForm({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [create, setCreate] = useState(40);
  const [tried, setTried] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const protect = useMutation({
    ...protectTagMutation(project.id),
    onMutate: () => setSaved(null),
    onSuccess: (created) => {
      setSaved(`Tag '${created.name}' is protected.`);
      setName('');
      setTried(false);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.protectedTags(project.id) });
    },
  });
  const blank = name.trim() === '';
  return (
    <SettingsForm
      label="Protect a tag"
      submitLabel="Protect"
      saving={protect.isPending}
      error={protect.error}
      saved={saved}
      onSubmit={() => {
        setTried(true);
        if (!blank) protect.mutate({ name: name.trim(), create_access_level: create });
      }}
    >
      <FormControl required>
        <FormControl.Label requiredIndicator={false}>Tag</FormControl.Label>
        <TextInput value={name} onChange={(event) => setName(event.target.value)} placeholder="v1.0, v*" />
        {tried && blank ? (
          <FormControl.Validation variant="error">Please enter a tag name or a wildcard such as v*.</FormControl.Validation>
        ) : (
          <FormControl.Caption>A tag name, or a wildcard such as v*.</FormControl.Caption>
        )}
      </FormControl>
      <FormControl>
        <FormControl.Label>Allowed to create</FormControl.Label>
        <Select value={String(create)} onChange={(event) => setCreate(Number(event.target.value))}>
          {CREATE_CHOICES.map((choice) => (
            <Select.Option key={choice.value} value={String(choice.value)}>
              {choice.label}
            </Select.Option>
          ))}
        </Select>
      </FormControl>
    </SettingsForm>
  );
}

/** The Repository settings' "Protected tags" section (GitLab's protected tags API). */
export function ProtectedTagsSection({ project }: { project: Project }) {
  return (
    <SettingsSection title="Protected tags" description="Limit access to creating and updating tags." defaultExpanded>
      <div className={styles.form}>
        <ProtectTagForm project={project} />
        <ProtectedTagList project={project} />
      </div>
    </SettingsSection>
  );
}
