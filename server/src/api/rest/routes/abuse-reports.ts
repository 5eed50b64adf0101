import type { FastifyInstance } from 'fastify';
import { ABUSE_CATEGORIES } from '../../../domains/abuse-reports/abuse-report-rules.js';
import type { AbuseReport } from '../../../domains/abuse-reports/abuse-reports.repository.js';
import type { User } from '../../../domains/users/user.js';
import type { RestContext } from '../context.js';
import { userBasic } from '../entities/users.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { Enum, Input, Int, Obj, Optional, Pagination, routes, Str } from '../input/route-kit.js';

/**
 * Abuse reports: `POST /abuse_reports` (the drawer's form: user_id, category,
 * reported_from_url and the comment, GitLab's `abuse_report[message]`), and the admin area's
 * `GET /admin/abuse_reports`, `GET|PUT|DELETE /admin/abuse_reports/:id` (status open/closed).
 */
export function abuseReportRoutes(app: FastifyInstance, ctx: RestContext<'abuseReports'>): void {
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
  const r = routes(app);
  const ReportId = Int({ minimum: 0 });

  r.post(
    '/abuse_reports',
    Input({
      user_id: Optional(Int()),
      category: Optional(Str()),
      comment: Optional(Str()),
      message: Optional(Str()),
      reported_from_url: Optional(Str()),
      // The web form nests its fields (abuse_report[category]); API clients send them flat.
      abuse_report: Optional(Obj({ category: Optional(Str()), message: Optional(Str()), reported_from_url: Optional(Str()) })),
    }),
    async (params, request, reply) => {
      const nested = params.abuse_report ?? {};
      const report = await abuseReports.create(request.actor, {
        userId: params.user_id,
        category: nested.category ?? params.category,
        comment: nested.message ?? params.comment ?? params.message,
        reportedFromUrl: nested.reported_from_url ?? params.reported_from_url,
      });
      return reply.status(201).send(await one(report));
    },
  );

  r.get(
    '/admin/abuse_reports',
    Input({ ...Pagination, status: Optional(Enum(['all', 'open', 'closed'] as const, { default: 'open' })), category: Optional(Enum(['all', ...ABUSE_CATEGORIES] as const, { default: 'all' })) }),
    async (params, request, reply) => {
      const page = parsePage(params);
      const { status, category } = params;
      const { reports, total } = await abuseReports.list(request.actor, { status: status === 'all' ? undefined : status, category: category === 'all' ? undefined : category }, page);
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
      const users = await abuseReports.usersOf(reports);
      return reports.map((report) => entity(report, users));
    },
  );

  r.get('/admin/abuse_reports/:report_id', Input({ report_id: ReportId }), async ({ report_id }, request) => one(await abuseReports.get(request.actor, report_id)));

  r.put('/admin/abuse_reports/:report_id', Input({ report_id: ReportId, status: Optional(Enum(['open', 'closed'] as const, { default: 'closed' })) }), async ({ report_id, status }, request) =>
    one(await abuseReports.setStatus(request.actor, report_id, status ?? 'closed')),
  );

  r.delete('/admin/abuse_reports/:report_id', Input({ report_id: ReportId }), async ({ report_id }, request, reply) => {
    await abuseReports.remove(request.actor, report_id);
    return reply.status(204).send();
  });
}
