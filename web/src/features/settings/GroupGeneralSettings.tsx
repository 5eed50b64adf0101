import { FormControl, TextInput, Textarea } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { fieldError } from '../../components/FormError';
import { GROUP_VISIBILITY_DESCRIPTIONS, VisibilityRadios } from '../../components/VisibilityRadios';
import type { Group, Visibility } from '../../lib/gitlab-types';
import { groupNameProblem } from '../../lib/group-name';
import { urls } from '../../lib/routes';
import { groupKeys } from '../groups/api';
import { deleteGroupMutation, updateGroupMutation } from './api';
import styles from './Settings.module.css';
import { GroupTransfer } from './GroupTransfer';
import { DeleteWithConfirmation } from './DeleteWithConfirmation';
import { SettingsForm, SettingsSection } from './SettingsSection';

function useGroupSave(group: Group) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<string | null>(null);
  const mutation = useMutation({
    ...updateGroupMutation(group.id),
    onMutate: () => setSaved(null),
    onSuccess: (updated) => {
      queryClient.setQueryData(groupKeys.detail(group.full_path), updated);
      void queryClient.invalidateQueries({ queryKey: groupKeys.all });
      setSaved(`Group '${updated.name}' was successfully updated.`);
    },
  });
  return { save: (body: Record<string, unknown>) => mutation.mutate(body), saving: mutation.isPending, error: mutation.error, saved };
}

function NamingSection({ group }: { group: Group }) {
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description ?? '');
  const [tried, setTried] = useState(false);
  const { save, saving, error, saved } = useGroupSave(group);
  const problem = groupNameProblem(name);
  return (
    <SettingsSection title="Naming, visibility" description="Update your group name, description, and visibility." defaultExpanded>
      <SettingsForm
        label="Naming, visibility"
        saving={saving}
        error={error}
        saved={saved}
        onSubmit={() => {
          setTried(true);
          if (!problem) save({ name: name.trim(), description });
        }}
      >
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Group name</FormControl.Label>
          <TextInput block value={name} onChange={(event) => setName(event.target.value)} aria-invalid={tried && problem !== null} />
          {tried && problem ? (
            <FormControl.Validation variant="error">{problem}</FormControl.Validation>
          ) : fieldError(error, 'name') ? (
            <FormControl.Validation variant="error">{fieldError(error, 'name')}</FormControl.Validation>
          ) : (
            <FormControl.Caption>Must start with letter, digit, emoji, or underscore. Can also contain periods, dashes, spaces, and parentheses.</FormControl.Caption>
          )}
        </FormControl>
        <FormControl>
          <FormControl.Label>Group ID</FormControl.Label>
          <TextInput block value={String(group.id)} readOnly />
        </FormControl>
        <FormControl>
          <FormControl.Label>Group description (optional)</FormControl.Label>
          <Textarea block rows={3} value={description} onChange={(event) => setDescription(event.target.value)} />
        </FormControl>
      </SettingsForm>
    </SettingsSection>
  );
}

function VisibilitySection({ group }: { group: Group }) {
  const [visibility, setVisibility] = useState<Visibility>(group.visibility);
  const { save, saving, error, saved } = useGroupSave(group);
  return (
    <SettingsSection title="Permissions and group features" description="Configure who can see the group and its projects.">
      <SettingsForm label="Permissions and group features" saving={saving} error={error} saved={saved} onSubmit={() => save({ visibility })}>
        <VisibilityRadios value={visibility} onChange={setVisibility} descriptions={GROUP_VISIBILITY_DESCRIPTIONS} />
      </SettingsForm>
    </SettingsSection>
  );
}

function DeleteGroup({ group }: { group: Group }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    ...deleteGroupMutation(group.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: groupKeys.all });
      void navigate('/dashboard/groups');
    },
  });
  return (
    <SettingsSection title="Advanced" description="Transfer or delete this group.">
      <div className={styles.form}>
        <GroupTransfer group={group} />
        <DeleteWithConfirmation
          kind="group"
          path={group.full_path}
          consequence={`This action deletes ${group.full_path}, its subgroups and all their projects. There is no going back.`}
          deleting={remove.isPending}
          error={remove.error}
          onDelete={() => remove.mutate()}
        />
      </div>
    </SettingsSection>
  );
}

/** `/groups/<group>/-/edit`: the group's General settings (Owners only, as GitLab's admin_group). */
export function GroupGeneralSettings({ group }: { group: Group }) {
  return (
    <>
      <NamingSection group={group} />
      <VisibilitySection group={group} />
      <DeleteGroup group={group} />
    </>
  );
}

export const groupSettingsNav = (group: Group, current: 'general' | 'ci_cd' | 'members') => [
  { label: 'General', to: urls.groupSettings(group.full_path), current: current === 'general' },
  { label: 'CI/CD', to: urls.groupCiCdSettings(group.full_path), current: current === 'ci_cd' },
  { label: 'Members', to: urls.groupMembers(group.full_path), current: current === 'members' },
];
