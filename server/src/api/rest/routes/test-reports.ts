import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../context.js';
import { testReportEntity, testReportSummaryEntity } from '../entities/test-reports.js';
import { Input, NamespacedRef, PathId, routes } from '../input/route-kit.js';

const PipelinePath = Input({ id: NamespacedRef(), pipeline_id: PathId() });

/** A pipeline's JUnit test report and its summary (doc/api/pipelines.md), from the parsed reports (domains/ci-reports/). */
export function testReportRoutes(app: FastifyInstance, ctx: RestContext<'ciReports'>): void {
  const { ciReports } = ctx.services;
  const r = routes(app);

  r.get('/projects/:id/pipelines/:pipeline_id/test_report', PipelinePath, async (params, request) => {
    const result = await ciReports.testReport(request.actor, params.id, params.pipeline_id);
    return testReportEntity(result.suites, result.cases, result.project.full_path, ctx.urls);
  });

  r.get('/projects/:id/pipelines/:pipeline_id/test_report_summary', PipelinePath, async (params, request) => {
    return testReportSummaryEntity(await ciReports.testReportSummary(request.actor, params.id, params.pipeline_id));
  });
}
