import { PageHeader, Stack } from '@primer/react';
import { NotFoundPage } from '../../app/NotFoundPage';
import { PageLoading } from '../../components/PageLoading';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import type { Group } from '../../lib/gitlab-types';
import { OWNER } from '../../lib/permissions';
import { GroupBreadcrumbs } from '../groups';
import { GroupGeneralSettings, groupSettingsNav } from './GroupGeneralSettings';
import { SettingsLayout } from './SettingsLayout';
import { useGroupLevel } from './useGroupLevel';

/** `/groups/<group>/-/edit`: Owners only (GitLab's admin_group); anyone else gets 'Page not found'. */
export function GroupSettingsPage({ group }: { group: Group }) {
  const level = useGroupLevel(group);
  useDocumentTitle(level !== undefined && level >= OWNER ? ['General', 'Settings', group.full_name] : null);
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
      <SettingsLayout title="General" nav={groupSettingsNav(group, 'general')} navLabel="Group settings">
        <GroupGeneralSettings group={group} />
      </SettingsLayout>
    </Stack>
  );
}
