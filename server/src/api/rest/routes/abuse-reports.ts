import type { FastifyInstance } from 'fastify';
import { ABUSE_CATEGORIES } from '../../../domains/abuse-reports/abuse-report-rules.js';
import type { AbuseReport } from '../../../domains/abuse-reports/abuse-reports.repository.js';
import type { User } from '../../../domains/users/user.js';
import { ValidationError } from '../../../platform/errors.js';
import { input, pathParam, type RestContext } from '../context.js';
import { userBasic } from '../entities/users.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { optionalInt, optionalString, oneOf } from '../params.js';

/**
 * Abuse reports: `POST /abuse_reports` (the drawer's form: user_id, category,
 * reported_from_url and the comment, GitLab's `abuse_report[message]`), and the admin area's
 * `GET /admin/abuse_reports`, `GET|PUT|DELETE /admin/abuse_reports/:id` (status open/closed).
 */
export function abuseReportRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { abuseReports } = ctx.services;
  const entity = (report: AbuseReport, users: Map<number, User>) => {
    const user = (id: number | null) => (id !== null && users.has(id) ? userBasic(users.get(id)!, ctx.urls) : null);
    return {
      id: report.id,
      category: report.category,
      status: report.status,
      message: report.comment,
      reported_from_url: report.reported_from_url,
      created_at: report.created_at,
      updated_at: report.updated_at,
      resolved_at: report.resolved_at,
      user: user(report.user_id),
      reporter: user(report.reporter_id),
      resolved_by: user(report.resolved_by_id),
    };
  };
  const one = async (report: AbuseReport) => entity(report, await abuseReports.usersOf([report]));
  const reportId = (raw: string) => {
    if (!/^\d{1,18}$/.test(raw)) throw new ValidationError('400 (Bad request) "id" is invalid');
    return Number(raw);
  };

  app.post('/abuse_reports', async (request, reply) => {
    const params = input(request);
    // The web form nests its fields (abuse_report[category]); API clients send them flat.
    const nested = (params.abuse_report && typeof params.abuse_report === 'object' ? params.abuse_report : {}) as Record<string, unknown>;
    const report = await abuseReports.create(request.actor, {
      userId: optionalInt(params, 'user_id'),
      category: optionalString(nested, 'category') ?? optionalString(params, 'category'),
      comment: optionalString(nested, 'message') ?? optionalString(params, 'comment') ?? optionalString(params, 'message'),
      reportedFromUrl: optionalString(nested, 'reported_from_url') ?? optionalString(params, 'reported_from_url'),
    });
    return reply.status(201).send(await one(report));
  });

  app.get('/admin/abuse_reports', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const status = oneOf(params, 'status', ['all', 'open', 'closed'] as const, 'open');
    const category = oneOf(params, 'category', ['all', ...ABUSE_CATEGORIES] as const, 'all');
    const { reports, total } = await abuseReports.list(request.actor, { status: status === 'all' ? undefined : status, category: category === 'all' ? undefined : category }, page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
    const users = await abuseReports.usersOf(reports);
    return reports.map((report) => entity(report, users));
  });

  app.get('/admin/abuse_reports/:report_id', async (request) => one(await abuseReports.get(request.actor, reportId(pathParam(request, 'report_id')))));

  app.put('/admin/abuse_reports/:report_id', async (request) => {
    const status = oneOf(input(request), 'status', ['open', 'closed'] as const, 'closed');
    return one(await abuseReports.setStatus(request.actor, reportId(pathParam(request, 'report_id')), status));
  });

  app.delete('/admin/abuse_reports/:report_id', async (request, reply) => {
    await abuseReports.remove(request.actor, reportId(pathParam(request, 'report_id')));
    return reply.status(204).send();
  });
}
