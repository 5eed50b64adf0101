import { t } from '@tributary/contracts/i18n';
import { SettingsSection } from '../SettingsSection';
import { ApprovalRulesList } from './ApprovalRulesList';
import { ApprovalSettingsForm } from './ApprovalSettingsForm';
import { SETTINGS_MSG } from './setting-fields';

/** Project settings → Merge requests → 'Merge request approvals': the rules, then the approval settings. */
export function ProjectApprovalsSection({ projectId }: { projectId: number }) {
  return (
    <SettingsSection title={t(SETTINGS_MSG.sectionTitle)} description={t(SETTINGS_MSG.sectionDescription)} defaultExpanded>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 24 }}>
        <ApprovalRulesList projectId={projectId} />
        <ApprovalSettingsForm owner={{ kind: 'project', id: projectId }} />
      </div>
    </SettingsSection>
  );
}

/** Group settings → General → 'Merge request approvals': the group's approval settings. */
export function GroupApprovalsSection({ groupId }: { groupId: number }) {
  return (
    <SettingsSection title={t(SETTINGS_MSG.sectionTitle)} description={t(SETTINGS_MSG.sectionDescription)}>
      <ApprovalSettingsForm owner={{ kind: 'group', id: groupId }} />
    </SettingsSection>
  );
}
