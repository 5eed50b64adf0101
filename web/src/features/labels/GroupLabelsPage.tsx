import { PageHeader, Stack } from '@primer/react';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import type { Group } from '../../lib/gitlab-types';
import { canManageLabels } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { GroupBreadcrumbs } from '../groups/GroupBreadcrumbs';
import { useGroupLevel } from '../settings/useGroupLevel';
import { LabelsPage } from './LabelsPage';

/** `/groups/<group path>/-/labels`: the group's own labels (LabelsPage), managed by the group's Reporters and above. */
export function GroupLabelsPage({ group }: { group: Group }) {
  useDocumentTitle(['Labels', group.full_name]);
  const manage = canManageLabels(useGroupLevel(group) ?? 0);
  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.ContextArea hidden={false}>
          <GroupBreadcrumbs fullPath={group.full_path} name={group.name} trailing={{ label: 'Labels', to: urls.groupLabels(group.full_path) }} />
        </PageHeader.ContextArea>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">{group.name}</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Description>Labels of this group are offered to every project and subgroup in it.</PageHeader.Description>
      </PageHeader>
      <LabelsPage owner={{ kind: 'group', group }} manage={manage} />
    </Stack>
  );
}
