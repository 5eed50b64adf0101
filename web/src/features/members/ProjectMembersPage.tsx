import { Heading, Stack, Text } from '@primer/react';
import type { Project } from '../../lib/gitlab-types';
import { assignableLevels, canManageProjectMembers } from '../../lib/permissions';
import { userProjectLevel, useOptionalUser } from '../session';
import { ROLE_LEVELS } from './access-levels';
import { MembersPanel } from './MembersPanel';

/** `/<project path>/-/project_members`. */
export function ProjectMembersPage({ project }: { project: Project }) {
  const user = useOptionalUser();
  const level = userProjectLevel(project, user);
  return (
    <Stack gap="normal">
      <div>
        <Heading as="h2" variant="medium">
          Project members
        </Heading>
        <Text as="p" className="fgMuted">
          {canManageProjectMembers(level) ? 'You can invite a new member to ' : 'Members of '}
          <strong>{project.name_with_namespace}</strong>.
        </Text>
      </div>
      <MembersPanel
        source={{ kind: 'projects', id: project.id }}
        resourceName={project.name}
        canManage={canManageProjectMembers(level)}
        levels={assignableLevels(ROLE_LEVELS, level)}
      />
    </Stack>
  );
}
