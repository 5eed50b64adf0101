import type { Project } from '../../lib/gitlab-types';
import { canManageLabels } from '../../lib/permissions';
import { userProjectLevel } from '../session/abilities';
import { useOptionalUser } from '../session/useCurrentUser';
import { MilestonesPage } from './MilestonesPage';

/** `/<project path>/-/milestones`: the project's milestones and its groups' (MilestonesPage), managed by Reporters and above. */
export function ProjectMilestonesPage({ project }: { project: Project }) {
  const user = useOptionalUser();
  return <MilestonesPage owner={{ kind: 'project', project }} manage={canManageLabels(userProjectLevel(project, user))} />;
}
