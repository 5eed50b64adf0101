/**
 * Abuse reports: any signed-in user reports another user to the administrators (the note
 * actions menu's "Report abuse to administrator"); administrators list them and close or
 * reopen them. Everyone else gets 403 on the admin calls, as GitLab's admin API answers.
 */
import type { Actor } from '../../auth/actor.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import type { UsersRepository } from '../users/users.repository.js';
import { validateAbuseReport, type AbuseCategory, type AbuseReportInput } from './abuse-report-rules.js';
import type { AbuseReport, AbuseReportsRepository, AbuseReportStatus } from './abuse-reports.repository.js';

export function createAbuseReportsService(deps: { reports: AbuseReportsRepository; users: Pick<UsersRepository, 'findById'> }) {
  const admin = (actor: Actor) => {
    if (!actor.user) throw new UnauthorizedError();
    if (!actor.user.is_admin) throw new ForbiddenError();
    return actor.user;
  };

  return {
    async create(actor: Actor, input: AbuseReportInput): Promise<AbuseReport> {
      if (!actor.user) throw new UnauthorizedError();
      const valid = validateAbuseReport(input, actor.user.id);
      if (!(await deps.users.findById(valid.userId))) throw new NotFoundError('User');
      const report = await deps.reports.insert({ ...valid, reporterId: actor.user.id });
      if (!report) throw ValidationError.field('user_id', 'You have already reported this user');
      return report;
    },

    async list(actor: Actor, filter: { status?: AbuseReportStatus; category?: AbuseCategory }, page: { limit: number; offset: number }) {
      admin(actor);
      return deps.reports.list(filter, page);
    },

    async get(actor: Actor, id: number): Promise<AbuseReport> {
      admin(actor);
      const report = await deps.reports.find(id);
      if (!report) throw new NotFoundError('Abuse report');
      return report;
    },

    async setStatus(actor: Actor, id: number, status: AbuseReportStatus): Promise<AbuseReport> {
      const user = admin(actor);
      if (!(await deps.reports.find(id))) throw new NotFoundError('Abuse report');
      const report = await deps.reports.setStatus(id, status, user.id);
      if (!report) throw ValidationError.field('user_id', 'You have already reported this user');
      return report;
    },

    async remove(actor: Actor, id: number): Promise<void> {
      admin(actor);
      if (!(await deps.reports.remove(id))) throw new NotFoundError('Abuse report');
    },

    /** The users a page of reports names, for the entities. */
    async usersOf(reports: AbuseReport[]) {
      const ids = [...new Set(reports.flatMap((r) => [r.user_id, r.reporter_id, r.resolved_by_id].filter((id): id is number => id !== null)))];
      const users = await Promise.all(ids.map((id) => deps.users.findById(id)));
      return new Map(users.filter((u) => u !== undefined).map((u) => [u!.id, u!]));
    },
  };
}

export type AbuseReportsService = ReturnType<typeof createAbuseReportsService>;
