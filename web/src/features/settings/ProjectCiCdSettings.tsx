import type { Project } from '../../lib/gitlab-types';
import { RunnersSection } from '../runners/RunnersSection';

/** The project's CI/CD settings page (`/<project>/-/settings/ci_cd`): one section per component, as GitLab lays them out. */
export function ProjectCiCdSettings({ project }: { project: Project }) {
  return <RunnersSection project={project} />;
}
