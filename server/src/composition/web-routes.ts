/**
 * Every route on the Fastify instance that http.ts prepared: the REST API under /api/v4 (signed
 * in by token, session or job token, its scope checked before the route), the session pages,
 * GraphQL and the merge widget, the web app's own JSON endpoints, the extra route plugins (git
 * smart HTTP and others) and last the web app with its old-path redirects, which answer whatever
 * no route did. Routes are registered in this order; the web app's catch-all must come last.
 */
import type { FastifyInstance } from 'fastify';
import type { TokenScope } from '../auth/actor.js';
import { assertApiScope, type Authorizer } from '../auth/authorizer.js';
import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/database.js';
import type { WriteWatch } from '../platform/db/write-watch.js';
import type { EventBus } from '../platform/events.js';
import { cachedRead } from '../platform/db/cached-read.js';
import { createUserCallouts } from '../domains/users/user-callouts.js';
import { createMergeRequestReports } from '../domains/ci-reports/merge-request-reports.service.js';
import { createExposedArtifacts } from '../domains/ci-reports/exposed-artifacts.js';
import { createMergeRequestDiffsRepository } from '../domains/merge-requests/merge-request-diffs.repository.js';
import { createPickIntoNewBranchService } from '../domains/repository/commit-picks-into.service.js';
import { createNoteAuthorRolesRepository } from '../domains/notes/note-author-roles.repository.js';
import { createNoteAuthorRolesService } from '../domains/notes/note-author-roles.service.js';
import { createNoteLocator } from '../domains/notes/note-locator.js';
import { createRedirectRoutesRepository } from '../domains/namespaces/redirect-routes.repository.js';
import { createAuthenticator } from '../api/rest/authenticate.js';
import { createUrls, type RestContext } from '../api/rest/context.js';
import { registerRestApi } from '../api/rest/index.js';
import { registerGraphql } from '../api/graphql/index.js';
import { createMergeRequestWidgets } from '../api/graphql/widget/index.js';
import { sessionRoutes } from '../api/web/session.routes.js';
import { mergeRequestWidgetRoutes } from '../api/web/merge-request-widget.routes.js';
import { environmentActionRoutes } from '../api/web/environment-actions.routes.js';
import { userCalloutRoutes } from '../api/web/user-callouts.routes.js';
import { noteAuthorRolesRoutes } from '../api/web/note-author-roles.routes.js';
import { pipelineDetailsRoutes } from '../api/web/pipeline-details.routes.js';
import { codeOwnersRoutes } from '../api/web/code-owners.routes.js';
import { markdownBatchRoutes } from '../api/web/markdown.routes.js';
import { commitPickRoutes } from '../api/web/commit-picks.routes.js';
import { mergeRequestReportsRoutes } from '../api/web/merge-request-reports.routes.js';
import { outdatedLineChangeRoutes } from '../api/web/outdated-line-change.routes.js';
import { jobArtifactsBrowseRoutes } from '../api/web/job-artifacts-browse.routes.js';
import { projectAvatarRoutes } from '../api/web/project-avatar.routes.js';
import { uploadFileRoutes } from '../api/web/uploads.routes.js';
import { rawFileRoutes } from '../api/web/raw-files.routes.js';
import { isClientRoute, registerWebApp } from '../api/web/static.js';
import { createOldPathRedirects, hidden } from '../api/web/old-path-redirects.js';

/** Extra route plugins (git smart HTTP and others) registered beside the REST API. */
export type RoutePlugin = (app: FastifyInstance, ctx: RestContext) => void | Promise<void>;

export async function registerWebRoutes(
  http: FastifyInstance,
  deps: {
    config: Pick<Config, 'externalUrl'>;
    db: Database;
    services: RestContext['services'];
    authorizer: Authorizer;
    events: EventBus;
    writeWatch: WriteWatch;
    plugins: RoutePlugin[];
  },
): Promise<void> {
  const { services, authorizer, events, writeWatch, db, plugins } = deps;
  const ctx: RestContext = { services, authorizer, urls: createUrls(deps.config.externalUrl), externalUrl: deps.config.externalUrl, watch: writeWatch };
  const authenticate = createAuthenticator({
    tokens: services.tokens,
    jobTokens: (token) => services.runnerProtocol.jobTokenIdentity(token),
    jobTokenAllows: (projectId, sourceProjectId) => services.jobTokenScope.allows(projectId, sourceProjectId),
    sessions: services.sessions,
    users: services.usersRepository,
    externalUrl: deps.config.externalUrl,
  });

  await http.register(
    async (api) => {
      api.addHook('onRequest', async (request) => {
        request.actor = await authenticate(request);
        const config = request.routeOptions.config as { userEndpoint?: boolean; alsoScopes?: TokenScope[] };
        assertApiScope(request.actor, request.method, { userEndpoint: config?.userEndpoint, alsoScopes: config?.alsoScopes });
      });
      await registerRestApi(api, ctx);
    },
    { prefix: '/api/v4' },
  );
  await http.register(async (web) => sessionRoutes(web, ctx));
  // The merge widget: GraphQL (queries and subscriptions) and the polled REST widget endpoint.
  const widgets = createMergeRequestWidgets({ services, authorizer, events, watch: writeWatch, externalUrl: deps.config.externalUrl });
  // GitLab's editor extensions: threads, notes and review mutations through the REST API's services
  const editor = {
    notes: services.notes,
    discussions: services.discussions,
    awardEmoji: services.awardEmoji,
    noteAccess: services.noteAccess,
    locator: createNoteLocator({ notes: services.notesRepository, mergeRequests: services.mergeRequestsRepository }),
    mergeRequests: services.mergeRequests,
    merging: services.merging,
    autoMerge: services.autoMerge,
    mergeRequestUsers: services.mergeRequestsRepository,
    users: services.usersRepository,
    markdown: services.markdown,
  };
  await http.register(async (graphql) => registerGraphql(graphql, { authenticate, events, widgets, watch: writeWatch, urls: ctx.urls, externalUrl: deps.config.externalUrl, editor, labels: { labels: services.labels, milestones: services.milestones, mergeRequests: services.mergeRequests }, approvals: { approvals: services.approvals }, pipelines: { pipelines: services.pipelines, pipelinesRepository: services.pipelinesRepository, downstream: services.downstreamRepository, artifacts: services.jobArtifacts, logs: services.runnerProtocol } , mergeTrains: { mergeTrains: services.mergeTrains } }));
  await http.register(async (web) => mergeRequestWidgetRoutes(web, { authenticate, widgets, urls: ctx.urls }));
  // the hints a user dismissed (GitLab's user callouts)
  await http.register(async (web) => userCalloutRoutes(web, { authenticate, callouts: createUserCallouts(db) }));
  // the merge widget's deployments and their stop / deploy / re-deploy actions
  await http.register(async (web) =>
    environmentActionRoutes(web, { authenticate, mergeRequests: services.mergeRequests, mergeRequestEnvironments: services.mergeRequestEnvironments, environments: services.environments, pipelines: services.pipelines }),
  );
  // the merge request's test report comparison and line coverage (GitLab's test_reports.json, coverage_reports.json)
  const mergeRequestReports = createMergeRequestReports({ mergeRequests: services.mergeRequests, diffs: createMergeRequestDiffsRepository(db), reports: services.ciReports });
  const exposedArtifacts = createExposedArtifacts({
    mergeRequests: services.mergeRequests,
    pipelines: services.pipelinesRepository,
    archives: async (jobIds) => {
      const byJob = new Map<number, { id: number; size: number }>();
      for (const [jobId, rows] of await services.jobArtifacts.describe(jobIds)) {
        const archive = rows.find((row) => row.file_type === 'archive');
        if (archive) byJob.set(jobId, { id: archive.id, size: archive.size });
      }
      return byJob;
    },
    entries: (actor, projectId, jobId) => services.jobArtifacts.entries(actor, String(projectId), jobId),
  });
  await http.register(async (web) => mergeRequestReportsRoutes(web, { authenticate, reports: mergeRequestReports, exposedArtifacts, urls: ctx.urls }));
  // the pipeline page's upstream and downstream pipelines (GitLab's pipeline JSON) and its jobs' needs (GitLab's DAG JSON)
  await http.register(async (web) => pipelineDetailsRoutes(web, { authenticate, relations: services.pipelineRelations, pipelines: services.pipelines, artifacts: services.jobArtifacts, urls: ctx.urls, externalUrl: deps.config.externalUrl }));
  // the role badges of the Activity section (web-only: the REST note entity has no access levels)
  const noteAuthorRoles = createNoteAuthorRolesService({ mergeRequests: services.mergeRequests, roles: createNoteAuthorRolesRepository(db) });
  await http.register(async (web) => noteAuthorRolesRoutes(web, { authenticate, roles: noteAuthorRoles }));
  // the Activity section's note bodies, many in one request (GitLab's POST /api/v4/markdown renders one)
  await http.register(async (web) => markdownBatchRoutes(web, { authenticate, projects: services.projects, markdown: services.markdown }));
  await http.register(async (web) => uploadFileRoutes(web, { authenticate, uploads: services.uploads }));
  // repository files by URL (`/<project>/-/raw/<ref>/<path>`), what README images point at
  await http.register(async (web) => rawFileRoutes(web, { authenticate, files: services.files }));
  // the file view's code owners and the CODEOWNERS file's syntax errors
  await http.register(async (web) => codeOwnersRoutes(web, { authenticate, codeOwners: services.codeOwnersOfFiles, urls: ctx.urls }));
  await http.register(async (web) => projectAvatarRoutes(web, { authenticate, avatars: services.projectAvatars }));
  await http.register(async (web) => outdatedLineChangeRoutes(web, { authenticate, outdated: services.outdatedDiscussions }));
  await http.register(async (web) => jobArtifactsBrowseRoutes(web, { authenticate, jobArtifacts: services.jobArtifacts }));
  // the merge widget's Revert / Cherry-pick: a new branch (in the caller's fork when they cannot push) and its merge request
  const picksInto = createPickIntoNewBranchService({ forksRepository: services.forksRepository, projects: services.projects, authorizer, namespaces: services.namespaces, storage: services.storage, forks: services.forks, branches: services.branches, picks: services.commitPicks, mergeRequests: services.mergeRequests });
  await http.register(async (web) => commitPickRoutes(web, { authenticate, picks: picksInto, externalUrl: deps.config.externalUrl }));
  for (const plugin of plugins) {
    await http.register(async (scoped) => plugin(scoped, ctx));
  }
  const serveWebApp = await registerWebApp(http);
  // a page at the old path of a renamed or moved project or group redirects to its new path
  const oldPathRedirect = createOldPathRedirects({
    authenticate,
    // Every app page load asks; redirect_routes changes only with routes, so answers are kept until routes are written.
    redirects: { longestMatch: cachedRead(writeWatch, createRedirectRoutesRepository(db).longestMatch, { tables: ['routes'], key: (paths: string[]) => (paths.at(-1) ?? '').toLowerCase() }) },
    canSeeProject: async (actor, fullPath) => (await services.projects.find(actor, fullPath).catch(hidden)) !== false,
    canSeeNamespace: async (actor, fullPath) => (await services.groups.findNamespace(actor, fullPath).catch(hidden)) !== false,
  });
  http.setNotFoundHandler(async (request, reply) => {
    const moved = isClientRoute(request.url) && !request.url.startsWith('/assets/') ? await oldPathRedirect(request) : undefined;
    if (moved) return reply.redirect(moved, 302);
    return serveWebApp(request, reply) ?? reply.status(404).send({ message: '404 Not Found' });
  });
}
