import type { WriteWatch } from '../../platform/db/write-watch.js';
import type { Project } from './project.js';
import type { ProjectsRepository } from './projects.repository.js';

type ProjectKey = { id: number } | { fullPath: string };
type ViewedProject = Project & { viewer_access_level: number };

/** The tables a project lookup reads: any write to them may change an answer. */
export const PROJECT_LOOKUP_TABLES = ['projects', 'routes', 'namespaces', 'project_members', 'group_members'] as const;
/** Where their statement triggers announce committed writes (migration 0010). */
export const PROJECT_LOOKUP_CHANNEL = 'tributary_project_lookups';

/**
 * A backstop, not the mechanism: writes move the watch's generation at once.
 * The age limit bounds what no write announces, a membership whose
 * `expires_at` date has just passed.
 */
export const PROJECT_LOOKUP_MAX_AGE_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  value: ViewedProject;
  generation: number;
  storedAt: number;
}

/**
 * Every project-scoped request starts with the project and the caller's
 * access level (`findForViewer`, one round trip). Remembering the answer per
 * (project, user) until one of the tables it came from is written takes the
 * database out of the hottest path (npm run bench: api). Misses, not-found
 * answers included, always ask the database.
 */
export function cacheProjectLookups(
  repository: Pick<ProjectsRepository, 'findForViewer'>,
  watch: Pick<WriteWatch, 'generation'>,
  now: () => number = Date.now,
): Pick<ProjectsRepository, 'findForViewer'> {
  const entries = new Map<string, Entry>();

  return {
    async findForViewer(key: ProjectKey, userId: number | null) {
      const cacheKey = `${'id' in key ? `#${key.id}` : key.fullPath.toLowerCase()} ${userId ?? ''}`;
      const generation = watch.generation();
      const hit = entries.get(cacheKey);
      if (hit && hit.generation === generation && now() - hit.storedAt < PROJECT_LOOKUP_MAX_AGE_MS) return copy(hit.value);

      const found = await repository.findForViewer(key, userId);
      // Stored only if nothing was written while the query ran: that answer might predate the write.
      if (found && watch.generation() === generation) {
        entries.delete(cacheKey);
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        entries.set(cacheKey, { value: copy(found), generation, storedAt: now() });
      }
      return found;
    },
  };
}

/** Callers may adjust what they get; the cached row stays as read. */
function copy(project: ViewedProject): ViewedProject {
  return { ...project, namespace_traversal_ids: [...project.namespace_traversal_ids] };
}
