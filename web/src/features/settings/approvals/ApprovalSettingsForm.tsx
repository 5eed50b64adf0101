import { Checkbox, Flash, FormControl, Heading } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lockedSettingMessage, type ApprovalSettingKey, type ApprovalSettingsAnswer, type ApprovalSettingValue } from '@tributary/contracts/approval-settings';
import { t } from '@tributary/contracts/i18n';
import { useState } from 'react';
import { SettingsForm } from '../SettingsSection';
import { approvalKeys, approvalSettingsQuery, lockingGroupQuery, updateApprovalSettingsMutation, type SettingsOwner } from './api';
import { checkedFromAnswer, SETTING_FIELDS, SETTINGS_MSG, updateFromChecked } from './setting-fields';

/** A locked setting's sentence; a group lock names the group, read when shown. */
function LockedCaption({ setting }: { setting: ApprovalSettingValue }) {
  const groupId = setting.inherited_from === 'group' ? (setting.locked_by_group_id ?? null) : null;
  const group = useQuery({ ...lockingGroupQuery(groupId ?? 0), enabled: groupId !== null });
  if (groupId !== null && !group.data) return null;
  return <FormControl.Caption>{lockedSettingMessage(setting, group.data?.name ?? null)}</FormControl.Caption>;
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
          {answer[key].locked ? <LockedCaption setting={answer[key]} /> : null}
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
