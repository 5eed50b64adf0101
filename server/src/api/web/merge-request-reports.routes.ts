import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { ExposedArtifacts } from '../../domains/ci-reports/exposed-artifacts.js';
import type { MergeRequestReports } from '../../domains/ci-reports/merge-request-reports.service.js';
import { NotFoundError } from '../../platform/errors.js';
import type { UrlBuilder } from '../rest/entities/users.js';
import { testReportsComparerEntity } from '../rest/entities/test-reports.js';
import { projectPathRoute } from './project-path-routes.js';

/**
 * GitLab's merge request report actions, which its widget polls:
 * `GET /:full_path/-/merge_requests/:iid/test_reports.json` (the head pipeline's JUnit reports
 * against the base pipeline's: new, existing and resolved failures and errors per suite) and
 * `…/coverage_reports.json` (`{"files": {"path": {"line": hits}}}` for the changed files). As
 * GitLab's `reports_response`: 200 with the data, 204 with `Poll-Interval` while a JUnit report of
 * the head pipeline is still being parsed, or 400 `{"status_reason": …}` when the head
 * pipeline has no such report. A project or merge request the caller may not see is a 404.
 */
/** GitLab's reports_response asks for the next poll after 3 seconds while a comparison is computed. */
export const REPORT_POLL_INTERVAL_MS = 3000;

export function mergeRequestReportsRoutes(
  app: FastifyInstance,
  deps: { authenticate(request: FastifyRequest): Promise<Actor>; reports: MergeRequestReports; exposedArtifacts: ExposedArtifacts; urls: UrlBuilder },
): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  const iidOf = (params: Record<string, string>) => {
    const iid = /^\d{1,9}$/.test(params.iid ?? '') ? Number(params.iid) : 0;
    if (iid <= 0) throw new NotFoundError();
    return iid;
  };

  projectPathRoute(app, '/-/merge_requests/:iid/test_reports.json', async (request, reply, fullPath, params) => {
    const result = await deps.reports.testReports(request.actor, fullPath, iidOf(params));
    reply.header('cache-control', 'no-cache');
    if (result.status === 'error') return reply.status(400).send({ status_reason: result.statusReason });
    // still being computed: GitLab's 204 with the interval its widget polls at
    if (result.status === 'parsing') return reply.status(204).header('poll-interval', String(REPORT_POLL_INTERVAL_MS)).send();
    return testReportsComparerEntity(result.data, fullPath, deps.urls);
  });

  // GitLab's exposed_artifacts: 204 when no job of the head pipeline exposes artifacts, else
  // `[{text, url, job_name, job_path}]` with an ETag; a poll sending it back (If-None-Match) gets
  // 304 before any archive is read.
  projectPathRoute(app, '/-/merge_requests/:iid/exposed_artifacts.json', async (request, reply, fullPath, params) => {
    const ifNoneMatch = request.headers['if-none-match'];
    const result = await deps.exposedArtifacts.list(request.actor, fullPath, iidOf(params), typeof ifNoneMatch === 'string' ? ifNoneMatch : null);
    reply.header('cache-control', 'no-cache');
    if (result.status === 'none') return reply.status(204).send();
    reply.header('etag', result.etag);
    if (result.status === 'unchanged') return reply.status(304).send();
    return result.data;
  });

  projectPathRoute(app, '/-/merge_requests/:iid/coverage_reports.json', async (request, reply, fullPath, params) => {
    const result = await deps.reports.coverageReports(request.actor, fullPath, iidOf(params));
    reply.header('cache-control', 'no-cache');
    if (result.status === 'error') return reply.status(400).send({ status_reason: result.statusReason });
    return result.data;
  });
}
