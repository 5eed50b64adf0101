import type { Project } from '../../lib/gitlab-types';
import { RefGate } from './RefGate';
import { RepositoryBrowser } from './RepositoryBrowser';

/** `/<project path>/-/tree/<ref>/<dir…>`. */
export function TreePage({ project, refAndPath }: { project: Project; refAndPath: string }) {
  return (
    <RefGate projectId={project.id} refAndPath={refAndPath}>
      {(ref, path) => <RepositoryBrowser project={project} ref={ref} path={path} />}
    </RefGate>
  );
}
