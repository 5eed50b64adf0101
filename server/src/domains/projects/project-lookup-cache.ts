import { cachedRead } from '../../platform/db/cached-read.js';
import type { WriteWatch } from '../../platform/db/write-watch.js';
import type { Project } from './project.js';
import type { ProjectsRepository } from './projects.repository.js';

type ProjectKey = { id: number } | { fullPath: string };
type ViewedProject = Project & { viewer_access_level: number };

/** The tables a project lookup reads: any write to them may change an answer. */
export const PROJECT_LOOKUP_TABLES = ['projects', 'routes', 'namespaces', 'project_members', 'group_members'] as const;

/**
 * Every project-scoped request starts with the project and the caller's
 * access level (`findForViewer`, one round trip). Remembering the answer per
 * (project, user) until one of the tables it came from is written takes the
 * database out of the hottest path (npm run bench: api). Not-found answers
 * are not kept.
 */
export function cacheProjectLookups(
  repository: Pick<ProjectsRepository, 'findForViewer'>,
  watch: Pick<WriteWatch, 'generation'>,
  now?: () => number,
): Pick<ProjectsRepository, 'findForViewer'> {
  return {
    findForViewer: cachedRead(watch, (key: ProjectKey, userId: number | null) => repository.findForViewer(key, userId), {
      tables: PROJECT_LOOKUP_TABLES,
      key: (key, userId) => `${'id' in key ? `#${key.id}` : key.fullPath.toLowerCase()} ${userId ?? ''}`,
      keep: (found) => found !== undefined,
      copy: (found) => found && copyRow(found),
      now,
    }),
  };
}

function copyRow(project: ViewedProject): ViewedProject {
  return { ...project, namespace_traversal_ids: [...project.namespace_traversal_ids] };
}
