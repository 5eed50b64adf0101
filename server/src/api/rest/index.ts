import type { FastifyInstance } from 'fastify';
import type { RestContext } from './context.js';
import { eventRoutes } from './routes/events.js';
import { groupRoutes } from './routes/groups.js';
import { memberRoutes } from './routes/members.js';
import { mergeRequestRoutes } from './routes/merge-requests/index.js';
import { approvalRoutes } from './routes/approvals.js';
import { mergeTrainRoutes } from './routes/merge-trains.js';
import { markdownRoutes } from './routes/markdown.js';
import { namespaceRoutes } from './routes/namespaces.js';
import { notesRoutes } from './routes/notes/index.js';
import { projectRoutes } from './routes/projects.js';
import { pushRuleRoutes } from './routes/push-rules.js';
import { repositoryRoutes } from './routes/repository/index.js';
import { tokenRoutes } from './routes/tokens.js';
import { userRoutes } from './routes/users.js';
import { uploadRoutes } from './routes/uploads/uploads.js';
import { suggestionRoutes } from './routes/suggestions.js';
import { abuseReportRoutes } from './routes/abuse-reports.js';
import { descriptionVersionRoutes } from './routes/description-versions.js';
import { labelRoutes } from './routes/labels.js';
import { milestoneRoutes } from './routes/milestones.js';
import { ciLintRoutes } from './routes/ci-lint.js';
import { runnerRoutes } from './routes/runners.js';
import { applicationSettingsRoutes } from './routes/application-settings.js';
import { pipelineScheduleRoutes } from './routes/pipeline-schedules.js';
import { environmentRoutes } from './routes/environments.js';
import { pipelineRoutes } from './routes/pipelines.js';
import { commitStatusRoutes } from './routes/commit-statuses.js';
import { testReportRoutes } from './routes/test-reports.js';
import { resourceGroupRoutes } from './routes/resource-groups.js';
import { jobTokenScopeRoutes } from './routes/job-token-scope.js';
import { ciVariableRoutes } from './routes/ci-variables.js';
import { runnerJobRoutes } from './routes/runner-protocol/jobs.js';
import { runnerArtifactRoutes } from './routes/runner-protocol/artifacts.js';
import { collectRoutes, openApiDocument } from './input/openapi.js';
import { Input, routes } from './input/route-kit.js';

const VERSION = { version: '17.0.0-tributary', revision: 'tributary' };

/** Every GitLab REST API v4 route module, mounted under /api/v4. */
export const REST_ROUTE_MODULES = [eventRoutes, userRoutes, tokenRoutes, groupRoutes, projectRoutes, pushRuleRoutes, memberRoutes, namespaceRoutes, repositoryRoutes, mergeRequestRoutes, markdownRoutes, notesRoutes, suggestionRoutes, uploadRoutes, abuseReportRoutes, descriptionVersionRoutes, labelRoutes, milestoneRoutes, ciLintRoutes, runnerRoutes, pipelineRoutes, resourceGroupRoutes, jobTokenScopeRoutes, ciVariableRoutes, runnerJobRoutes, runnerArtifactRoutes, pipelineScheduleRoutes, environmentRoutes, commitStatusRoutes, testReportRoutes, applicationSettingsRoutes, approvalRoutes, mergeTrainRoutes];

export async function registerRestApi(api: FastifyInstance, ctx: RestContext): Promise<void> {
  const registered = collectRoutes(api);
  for (const register of REST_ROUTE_MODULES) register(api, ctx);
  const r = routes(api);
  r.get('/version', Input({}), async () => VERSION);
  // The OpenAPI description of every route above, built once on first request (the routes are all registered by then).
  let openApi: string | undefined;
  r.get('/openapi.json', Input({}), async (_input, request, reply) => {
    openApi ??= JSON.stringify(openApiDocument(registered, { prefix: api.prefix, version: VERSION.version }));
    return reply.type('application/json').send(openApi);
  });
}
