import { Button, Checkbox, FormControl, Select, Spinner, Text, TextInput } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import type { Project } from '../../lib/gitlab-types';
import { branchNamesQuery, protectBranchMutation, protectedBranchesQuery, settingsKeys, unprotectBranchMutation, type ProtectedBranch } from './api';
import { ProtectedTagsSection } from './ProtectedTagsSection';
import { PushRulesSection } from './PushRulesSection';
import styles from './Settings.module.css';
import { SettingsForm, SettingsSection } from './SettingsSection';
import { useProjectSave } from './useProjectSave';

/** GitLab's access level choices for a protected branch. */
const ACCESS_CHOICES = [
  { value: 40, label: 'Maintainers' },
  { value: 30, label: 'Developers + Maintainers' },
  { value: 0, label: 'No one' },
] as const;

function BranchDefaults({ project }: { project: Project }) {
  const branches = useQuery(branchNamesQuery(project.id));
  const [branch, setBranch] = useState(project.default_branch ?? '');
  const { save, saving, error, saved } = useProjectSave(project);
  const names = branches.data ?? [];
  return (
    <SettingsSection
      title="Branch defaults"
      description="Set the default branch for this project. All merge requests and commits are made against this branch unless you specify a different one."
      defaultExpanded
    >
      <SettingsForm label="Branch defaults" saving={saving} error={error} saved={saved} onSubmit={() => save({ default_branch: branch })} canSave={branch !== ''}>
        <FormControl disabled={branches.isPending}>
          <FormControl.Label>Default branch</FormControl.Label>
          <Select value={branch} onChange={(event) => setBranch(event.target.value)}>
            {branch !== '' && !names.includes(branch) ? <Select.Option value={branch}>{branch}</Select.Option> : null}
            {names.map((name) => (
              <Select.Option key={name} value={name}>
                {name}
              </Select.Option>
            ))}
          </Select>
          {branches.isError ? <FormControl.Validation variant="error">Branches could not be loaded.</FormControl.Validation> : null}
          {branches.isSuccess && names.length === 0 ? <FormControl.Caption>The repository has no branches yet.</FormControl.Caption> : null}
        </FormControl>
      </SettingsForm>
    </SettingsSection>
  );
}

const describe = (levels: ProtectedBranch['push_access_levels']) => levels.map((level) => level.access_level_description).join(', ') || 'No one';

function ProtectedBranchList({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const list = useQuery(protectedBranchesQuery(project.id));
  const unprotect = useMutation({
    ...unprotectBranchMutation(project.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.protectedBranches(project.id) }),
  });
  if (list.isPending) return <Spinner size="small" aria-label="Loading protected branches" />;
  if (list.isError) return <PageError title="Protected branches could not be loaded." error={list.error} onRetry={() => void list.refetch()} />;
  if (list.data.length === 0) return <Text className={styles.muted}>No branches are protected.</Text>;
  return (
    <>
      <FormError error={unprotect.error} title="The branch could not be unprotected." />
      <ul className={styles.list} aria-label="Protected branches">
        {list.data.map((branch) => (
          <li key={branch.id} className={styles.listRow}>
            <div>
              <strong>{branch.name}</strong>
              <div className={styles.muted}>
                Allowed to merge: {describe(branch.merge_access_levels)} · Allowed to push and merge: {describe(branch.push_access_levels)}
                {branch.allow_force_push ? ' · Force push allowed' : ''}
              </div>
            </div>
            <Button variant="danger" size="small" aria-label={`Unprotect ${branch.name}`} loading={unprotect.isPending && unprotect.variables === branch.name} onClick={() => unprotect.mutate(branch.name)}>
              Unprotect
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}

function ProtectBranchForm({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [merge, setMerge] = useState(40);
  const [push, setPush] = useState(40);
  const [forcePush, setForcePush] = useState(false);
  const [tried, setTried] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const protect = useMutation({
    ...protectBranchMutation(project.id),
    onMutate: () => setSaved(null),
    onSuccess: (created) => {
      setSaved(`Branch '${created.name}' is protected.`);
      setName('');
      setTried(false);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.protectedBranches(project.id) });
    },
  });
  const blank = name.trim() === '';
  return (
    <SettingsForm
      label="Protect a branch"
      submitLabel="Protect"
      saving={protect.isPending}
      error={protect.error}
      saved={saved}
      onSubmit={() => {
        setTried(true);
        if (!blank) protect.mutate({ name: name.trim(), merge_access_level: merge, push_access_level: push, allow_force_push: forcePush });
      }}
    >
      <FormControl required>
        <FormControl.Label requiredIndicator={false}>Branch</FormControl.Label>
        <TextInput value={name} onChange={(event) => setName(event.target.value)} placeholder="main, release/*" />
        {tried && blank ? (
          <FormControl.Validation variant="error">Please enter a branch name or a wildcard such as release/*.</FormControl.Validation>
        ) : (
          <FormControl.Caption>A branch name, or a wildcard such as release/*.</FormControl.Caption>
        )}
      </FormControl>
      <FormControl>
        <FormControl.Label>Allowed to merge</FormControl.Label>
        <Select value={String(merge)} onChange={(event) => setMerge(Number(event.target.value))}>
          {ACCESS_CHOICES.map((choice) => (
            <Select.Option key={choice.value} value={String(choice.value)}>
              {choice.label}
            </Select.Option>
          ))}
        </Select>
      </FormControl>
      <FormControl>
        <FormControl.Label>Allowed to push and merge</FormControl.Label>
        <Select value={String(push)} onChange={(event) => setPush(Number(event.target.value))}>
          {ACCESS_CHOICES.map((choice) => (
            <Select.Option key={choice.value} value={String(choice.value)}>
              {choice.label}
            </Select.Option>
          ))}
        </Select>
      </FormControl>
      <FormControl>
        <Checkbox checked={forcePush} onChange={(event) => setForcePush(event.target.checked)} />
        <FormControl.Label>Allowed to force push</FormControl.Label>
        <FormControl.Caption>Allow all users with push access to force push.</FormControl.Caption>
      </FormControl>
    </SettingsForm>
  );
}

/** `/-/settings/repository`: the default branch, push rules, protected branches and protected tags (GitLab's push rule, protected branches and tags APIs). */
export function ProjectRepositorySettings({ project }: { project: Project }) {
  return (
    <>
      <BranchDefaults project={project} />
      <PushRulesSection project={project} />
      <SettingsSection title="Protected branches" description="Keep stable branches secure and force developers to use merge requests." defaultExpanded>
        <div className={styles.form}>
          <ProtectBranchForm project={project} />
          <ProtectedBranchList project={project} />
        </div>
      </SettingsSection>
      <ProtectedTagsSection project={project} />
    </>
  );
}
