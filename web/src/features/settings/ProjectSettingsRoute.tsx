import type { Project } from '../../lib/gitlab-types';
import { urls, type ProjectSettingsPage } from '../../lib/routes';
import { ProjectApprovalsSection } from './approvals';
import { ProjectCiCdSettings } from './ProjectCiCdSettings';
import { ProjectGeneralSettings } from './ProjectGeneralSettings';
import { ProjectMergeRequestSettings } from './ProjectMergeRequestSettings';
import { ProjectRepositorySettings } from './ProjectRepositorySettings';
import { SettingsLayout } from './SettingsLayout';

const TITLES: Record<ProjectSettingsPage, string> = { general: 'General', repository: 'Repository', merge_requests: 'Merge requests', ci_cd: 'CI/CD' };

/** The project's settings pages (Maintainers and Owners; ProjectRoute answers 'Page not found' to others). */
export function ProjectSettingsRoute({ project, section }: { project: Project; section: ProjectSettingsPage }) {
  const fullPath = project.path_with_namespace;
  const nav = [
    ...(['general', 'repository', 'merge_requests', 'ci_cd'] as const).map((page) => ({ label: TITLES[page], to: urls.projectSettings(fullPath, page), current: page === section })),
    { label: 'Members', to: urls.projectMembers(fullPath), current: false },
  ];
  return (
    <SettingsLayout title={TITLES[section]} nav={nav} navLabel="Settings">
      {section === 'general' ? <ProjectGeneralSettings project={project} /> : null}
      {section === 'repository' ? <ProjectRepositorySettings project={project} /> : null}
      {section === 'merge_requests' ? <ProjectMergeRequestSettings project={project} /> : null}
      {section === 'merge_requests' ? <ProjectApprovalsSection projectId={project.id} /> : null}
      {section === 'ci_cd' ? <ProjectCiCdSettings project={project} /> : null}
    </SettingsLayout>
  );
}
