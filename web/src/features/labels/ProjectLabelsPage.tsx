import type { Project } from '../../lib/gitlab-types';
import { canManageLabels } from '../../lib/permissions';
import { userProjectLevel } from '../session/abilities';
import { useOptionalUser } from '../session/useCurrentUser';
import { LabelsPage } from './LabelsPage';

/** `/<project path>/-/labels`: the project's labels and its groups' (LabelsPage), managed by Reporters and above. */
export function ProjectLabelsPage({ project }: { project: Project }) {
  const user = useOptionalUser();
  return <LabelsPage owner={{ kind: 'project', project }} manage={canManageLabels(userProjectLevel(project, user))} />;
}
