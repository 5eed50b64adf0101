import { PageHeader, Stack } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import type { Group } from '../../lib/gitlab-types';
import { OWNER } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { GroupBreadcrumbs } from '../groups';
import { useOptionalUser } from '../session';
import { ROLE_LEVELS } from './access-levels';
import { ownMembershipQuery } from './api';
import { MembersPanel } from './MembersPanel';

/** `/groups/<path>/-/group_members`. Owners (and admins) manage members; the server has the last word. */
export function GroupMembersPage({ group }: { group: Group }) {
  const user = useOptionalUser();
  const source = { kind: 'groups', id: group.id } as const;
  // a visitor has no membership to look up, and manages nothing
  const own = useQuery({ ...ownMembershipQuery(source, user?.id ?? 0), enabled: user !== null && !user.is_admin });
  const canManage = user !== null && (Boolean(user.is_admin) || (own.data?.access_level ?? 0) >= OWNER);
  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.ContextArea hidden={false}>
          <GroupBreadcrumbs fullPath={group.full_path} name={group.name} trailing={{ label: 'Members', to: urls.groupMembers(group.full_path) }} />
        </PageHeader.ContextArea>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">Group members</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Description>
          You're viewing members of {group.full_name}.
        </PageHeader.Description>
      </PageHeader>
      <MembersPanel
        source={source}
        resourceName={group.name}
        canManage={canManage}
        levels={[...ROLE_LEVELS]}
      />
    </Stack>
  );
}
