/**
 * Pure rules of abuse reports (GitLab's AbuseReport): the categories of the "Report abuse to
 * administrator" drawer, in its order, and what a report must carry.
 */
import { ABUSE_CATEGORIES, type AbuseCategory } from '@tributary/contracts';
import { ValidationError } from '../../platform/errors.js';

export { ABUSE_CATEGORIES, type AbuseCategory };

export const MAX_COMMENT_CHARS = 5000;
/** GitLab: reported_from_url, length maximum 512 */
export const MAX_REPORTED_FROM_URL_CHARS = 512;

export interface AbuseReportInput {
  userId: number | undefined;
  category: string | undefined;
  comment: string | undefined;
  reportedFromUrl: string | undefined;
}

export interface ValidAbuseReport {
  userId: number;
  category: AbuseCategory;
  comment: string;
  reportedFromUrl: string;
}

/** The first problem with a report as GitLab words it, or the report ready to store. */
export function validateAbuseReport(input: AbuseReportInput, reporterId: number): ValidAbuseReport {
  if (input.userId === undefined) throw ValidationError.missing('user_id');
  if (input.category === undefined || input.category === '') throw ValidationError.missing('category');
  if (!ABUSE_CATEGORIES.includes(input.category as AbuseCategory)) throw new ValidationError('400 (Bad request) "category" does not have a valid value');
  const comment = (input.comment ?? '').trim();
  if (comment === '') throw ValidationError.field('message', "can't be blank");
  if ([...comment].length > MAX_COMMENT_CHARS) throw ValidationError.field('message', `is too long (maximum is ${MAX_COMMENT_CHARS} characters)`);
  const reportedFromUrl = input.reportedFromUrl ?? '';
  if (reportedFromUrl.length > MAX_REPORTED_FROM_URL_CHARS) throw ValidationError.field('reported_from_url', `is too long (maximum is ${MAX_REPORTED_FROM_URL_CHARS} characters)`);
  if (reportedFromUrl !== '' && !/^https?:\/\//i.test(reportedFromUrl)) throw ValidationError.field('reported_from_url', 'is blocked: Only allowed schemes are http, https');
  if (input.userId === reporterId) throw ValidationError.field('user_id', 'You cannot report yourself');
  return { userId: input.userId, category: input.category as AbuseCategory, comment, reportedFromUrl };
}
