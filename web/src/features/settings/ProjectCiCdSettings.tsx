import type { Project } from '../../lib/gitlab-types';
import { RunnersSection } from '../runners/RunnersSection';
import { CiVariablesSection } from './CiVariablesSection';

/** `/-/settings/ci_cd`: the project's CI/CD settings, one component per section as GitLab lays them out (Maintainers and Owners only, as every settings page). */
export function ProjectCiCdSettings({ project }: { project: Project }) {
  return (
    <>
      <CiVariablesSection owner={{ kind: 'project', id: project.id }} />
      <RunnersSection project={project} />
    </>
  );
}
