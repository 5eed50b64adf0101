import { PencilIcon } from '@primer/octicons-react';
import { LinkButton } from '../../components/AppLink';
import { EmptyState } from '../../components/EmptyState';
import type { Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { RefGate } from './RefGate';

/**
 * `/<path>/-/edit/<ref>/<file>`: GitLab's single-file editor, which diffs link to. Until it
 * exists, the page says so and offers the file.
 */
export function EditFilePage({ project, refAndPath }: { project: Project; refAndPath: string }) {
  return (
    <RefGate projectId={project.id} refAndPath={refAndPath}>
      {(ref, path) => (
        <EmptyState icon={PencilIcon} title="Editing files in the browser is not available yet" description={`Clone the repository, change ${path} on ${ref} and push.`}>
          <LinkButton to={urls.blob(project.path_with_namespace, ref, path)}>View file</LinkButton>
        </EmptyState>
      )}
    </RefGate>
  );
}
