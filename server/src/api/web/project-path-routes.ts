import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A project path is its namespace (at most 20 nested groups, GitLab's limit) and its own path. */
const MAX_PATH_SEGMENTS = 21;

/**
 * GitLab's web routes that start with a project's full path. The router cannot put a wildcard
 * before a fixed segment (git smart HTTP owns `/*`), and one route per path depth cost a
 * twentieth of a start (sixty routes of up to 24 parameters). So `rewriteProjectPathUrl`
 * turns `/group/sub/project/-/merge_requests/1/widget.json` into
 * `/-/project-path/group%2Fsub%2Fproject/-/merge_requests/1/widget.json` before routing, and
 * each route is registered once with the full path as one parameter. The rewritten form is
 * an ordinary URL too, behind the same authentication and permission checks.
 */
export const PROJECT_PATH_SUFFIXES = [
  '/-/merge_requests/:iid/widget.json',
  // the pipelines page: a page of pipelines with their jobs, in a fixed number of reads
  '/-/pipelines.json',
  // the pipeline page's upstream and downstream pipelines (GitLab's pipeline JSON)
  '/-/pipelines/:pipeline_id.json',
  // the pipeline graph's job dependencies (GitLab's DAG JSON)
  '/-/pipelines/:pipeline_id/dag.json',
  '/notes/:note_id/outdated_line_change',
  '/uploads/:secret/:filename',
  // the merge request's test report comparison and line coverage
  '/-/merge_requests/:iid/test_reports.json',
  '/-/merge_requests/:iid/coverage_reports.json',
  // the widget's exposed artifacts (`artifacts:expose_as`)
  '/-/merge_requests/:iid/exposed_artifacts.json',
  // the merge widget's deployments and their inline actions (GitLab's web routes)
  '/-/merge_requests/:iid/ci_environments_status',
  '/-/merge_requests/:iid/ci_environments_status.json',
  '/-/environments/:environment_id/stop',
  '/-/jobs/:job_id/play',
  '/-/jobs/:job_id/retry',
  // a delayed job back to manual (the pipeline graph's time-out action)
  '/-/jobs/:job_id/unschedule',
  // the job page's artifacts browser
  '/-/jobs/:job_id/artifacts/browse.json',
  // one artifact of a job by type (GraphQL's CiJobArtifact.downloadPath)
  '/-/jobs/:job_id/artifacts/download',
  // the file view's code owners (`?ref=&path=`)
  '/-/code_owners',
] as const;
/** `/<project>/-/raw/<ref>/<path>`: the ref and the path together, split by the handler (refs contain slashes). */
export const RAW_SUFFIX = '/-/raw/*';
export type ProjectPathSuffix = (typeof PROJECT_PATH_SUFFIXES)[number] | typeof RAW_SUFFIX;

const PREFIX = '/-/project-path';

const suffixPattern = (suffix: string) => suffix.replace(/[.]/g, '\\.').replace(/:[a-z_]+/g, '[^/?#]+');
const PROJECT_PATH_URL = new RegExp(
  `^/((?:[^/?#]+/){1,${MAX_PATH_SEGMENTS - 1}}[^/?#]+)(?:${PROJECT_PATH_SUFFIXES.map(suffixPattern).join('|')})(?=[?#]|$)`,
);

/** Fastify's `rewriteUrl`: a project-path URL with its full path as one segment; others as they are. Pure. */
export function rewriteProjectPathUrl(url: string): string {
  // The API and the app's own `/-/` routes never start with a project path (the hot path exits here).
  if (url.startsWith('/api/') || url.startsWith('/-/')) return url;
  // The first `/-/` ends a project path (no path segment is `-`): what follows `/-/raw/` is the ref and file.
  const raw = url.indexOf('/-/raw/');
  if (raw > 0 && url.indexOf('/-/') === raw) {
    const fullPath = url.slice(1, raw);
    const segments = fullPath.split('/');
    if (segments.length >= 2 && segments.length <= MAX_PATH_SEGMENTS && segments.every((segment) => segment !== '' && !/[?#]/.test(segment))) {
      return `${PREFIX}/${fullPath.replaceAll('/', '%2F')}${url.slice(raw)}`;
    }
    return url;
  }
  const match = PROJECT_PATH_URL.exec(url);
  if (!match) return url;
  const fullPath = match[1]!;
  return `${PREFIX}/${fullPath.replaceAll('/', '%2F')}${url.slice(fullPath.length + 1)}`;
}

export type ProjectPathHandler = (request: FastifyRequest, reply: FastifyReply, fullPath: string, params: Record<string, string>) => unknown;

/** Registers `GET /:full_path<suffix>` (or another method; reached through rewriteProjectPathUrl); the handler gets the full path. */
export function projectPathRoute(app: FastifyInstance, suffix: ProjectPathSuffix, handler: ProjectPathHandler, method: 'GET' | 'POST' = 'GET'): void {
  app.route({
    method,
    url: `${PREFIX}/:full_path${suffix}`,
    handler: async (request, reply) => {
      const params = request.params as Record<string, string>;
      return handler(request, reply, params.full_path ?? '', params);
    },
  });
}
