import { PageHeader, Stack } from '@primer/react';
import { NotFoundPage } from '../../app/NotFoundPage';
import { PageLoading } from '../../components/PageLoading';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import type { Group } from '../../lib/gitlab-types';
import { OWNER } from '../../lib/permissions';
import { GroupBreadcrumbs } from '../groups';
import { GroupApprovalsSection } from './approvals';
import { GroupGeneralSettings, groupSettingsNav } from './GroupGeneralSettings';
import { CiVariablesSection } from './CiVariablesSection';
import { SettingsLayout } from './SettingsLayout';
import { useGroupLevel } from './useGroupLevel';

const TITLES = { general: 'General', ci_cd: 'CI/CD' } as const;

/**
 * `/groups/<group>/-/edit` and `/-/settings/ci_cd`: Owners only (GitLab's admin_group and
 * admin_cicd_variables); anyone else gets 'Page not found'.
 */
export function GroupSettingsPage({ group, section = 'general' }: { group: Group; section?: 'general' | 'ci_cd' }) {
  const level = useGroupLevel(group);
  useDocumentTitle(level !== undefined && level >= OWNER ? [TITLES[section], 'Settings', group.full_name] : null);
  if (level === undefined) return <PageLoading label="Loading group settings" />;
  if (level < OWNER) return <NotFoundPage />;
  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.ContextArea hidden={false}>
          <GroupBreadcrumbs fullPath={group.full_path} name={group.name} />
        </PageHeader.ContextArea>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">{group.name}</PageHeader.Title>
        </PageHeader.TitleArea>
      </PageHeader>
      <SettingsLayout title={TITLES[section]} nav={groupSettingsNav(group, section)} navLabel="Group settings">
        {section === 'general' ? <GroupGeneralSettings group={group} /> : <CiVariablesSection owner={{ kind: 'group', id: group.id }} />}
        {section === 'general' ? <GroupApprovalsSection groupId={group.id} /> : null}
      </SettingsLayout>
    </Stack>
  );
}
