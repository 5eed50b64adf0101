import { PageHeader, Stack } from '@primer/react';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import type { Group } from '../../lib/gitlab-types';
import { canManageLabels } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { GroupBreadcrumbs } from '../groups/GroupBreadcrumbs';
import { useGroupLevel } from '../settings/useGroupLevel';
import { MilestonesPage } from './MilestonesPage';

/** `/groups/<group path>/-/milestones`: the group's milestones (MilestonesPage), managed by the group's Reporters and above. */
export function GroupMilestonesPage({ group }: { group: Group }) {
  useDocumentTitle(['Milestones', group.full_name]);
  const manage = canManageLabels(useGroupLevel(group) ?? 0);
  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.ContextArea hidden={false}>
          <GroupBreadcrumbs fullPath={group.full_path} name={group.name} trailing={{ label: 'Milestones', to: urls.groupMilestones(group.full_path) }} />
        </PageHeader.ContextArea>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">{group.name}</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Description>Milestones of this group are offered to every project and subgroup in it.</PageHeader.Description>
      </PageHeader>
      <MilestonesPage owner={{ kind: 'group', group }} manage={manage} />
    </Stack>
  );
}
