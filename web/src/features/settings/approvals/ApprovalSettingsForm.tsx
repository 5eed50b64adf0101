import { Checkbox, Flash, FormControl, Heading } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { lockedSettingMessage, type ApprovalSettingKey, type ApprovalSettingsAnswer, type ApprovalSettingValue } from '@tributary/contracts/approval-settings';
import { t } from '@tributary/contracts/i18n';
import { useState } from 'react';
import { SettingsForm } from '../SettingsSection';
import { approvalKeys, approvalSettingsQuery, lockingGroupQuery, updateApprovalSettingsMutation, type SettingsOwner } from './api';
import { checkedFromAnswer, SETTING_FIELDS, SETTINGS_MSG, updateFromChecked } from './setting-fields';

/** The names of the groups that lock settings, by id ("configured in {groupName}"). */
function useLockingGroupNames(answer: ApprovalSettingsAnswer): Map<number, string> {
  const ids = [...new Set(Object.values(answer).flatMap((setting) => (setting.locked && setting.inherited_from === 'group' && setting.locked_by_group_id ? [setting.locked_by_group_id] : [])))];
  const groups = useQueries({ queries: ids.map((id) => lockingGroupQuery(id)) });
  return new Map(groups.flatMap((group) => (group.data ? [[group.data.id, group.data.name] as const] : [])));
}

/** A locked setting's sentence; a group lock waits for the group's name. */
function lockedCaption(setting: ApprovalSettingValue, names: Map<number, string>): string | null {
  if (setting.inherited_from === 'group') {
    const name = setting.locked_by_group_id ? names.get(setting.locked_by_group_id) : undefined;
    return name === undefined ? null : lockedSettingMessage(setting, name);
  }
  return lockedSettingMessage(setting, null);
}

function Loaded({ owner, answer }: { owner: SettingsOwner; answer: ApprovalSettingsAnswer }) {
  const queryClient = useQueryClient();
  const [checked, setChecked] = useState(() => checkedFromAnswer(answer));
  const [saved, setSaved] = useState<string | null>(null);
  const update = useMutation({
    ...updateApprovalSettingsMutation(owner),
    onMutate: () => setSaved(null),
    onSuccess: (next) => {
      queryClient.setQueryData(approvalKeys.settings(owner), next);
      setChecked(checkedFromAnswer(next));
      setSaved(t(SETTINGS_MSG.updated));
    },
  });
  const groupNames = useLockingGroupNames(answer);
  const set = (key: ApprovalSettingKey, value: boolean) => setChecked((current) => ({ ...current, [key]: value }));
  return (
    <SettingsForm
      label={t(SETTINGS_MSG.settingsHeading)}
      onSubmit={() => update.mutate(updateFromChecked(checked, answer))}
      saving={update.isPending}
      error={null}
      saved={saved}
    >
      {update.isError ? (
        <Flash variant="danger" role="alert">
          {t(SETTINGS_MSG.updateError)}
        </Flash>
      ) : null}
      {SETTING_FIELDS.map(({ key, label }) => (
        <FormControl key={key} disabled={answer[key].locked}>
          <Checkbox checked={checked[key]} onChange={(event) => set(key, event.target.checked)} />
          <FormControl.Label>{label}</FormControl.Label>
          {answer[key].locked && lockedCaption(answer[key], groupNames) ? <FormControl.Caption>{lockedCaption(answer[key], groupNames)}</FormControl.Caption> : null}
        </FormControl>
      ))}
    </SettingsForm>
  );
}

/** The approval settings of a project or a group, each disabled and explained where a level above locks it. */
export function ApprovalSettingsForm({ owner }: { owner: SettingsOwner }) {
  const settings = useQuery(approvalSettingsQuery(owner));
  return (
    <div>
      <Heading as="h3" variant="small">
        {t(SETTINGS_MSG.settingsHeading)}
      </Heading>
      {settings.isPending ? <SkeletonBox height="120px" aria-label="Loading approval settings" /> : null}
      {settings.isError ? (
        <Flash variant="danger" role="alert">
          {t(SETTINGS_MSG.loadError)}
        </Flash>
      ) : null}
      {settings.data ? <Loaded owner={owner} answer={settings.data} /> : null}
    </div>
  );
}
