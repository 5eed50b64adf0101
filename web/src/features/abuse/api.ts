import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import type { AbuseCategory } from '@tributary/contracts';
import { api } from '../../app/client';
import type { User } from '../../lib/gitlab-types';

export interface AbuseReport {
  id: number;
  category: AbuseCategory;
  status: 'open' | 'closed';
  message: string;
  reported_from_url: string;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  user: User | null;
  reporter: User | null;
  resolved_by: User | null;
}

export interface AbuseReportInput {
  user_id: number;
  abuse_report: { category: AbuseCategory; message: string; reported_from_url: string };
}

export const ABUSE_REPORTS_PER_PAGE = 20;

export const abuseReportKeys = {
  all: ['admin', 'abuse_reports'] as const,
  list: (params: { status: 'open' | 'closed'; page: number }) => [...abuseReportKeys.all, 'list', params] as const,
};

/** POST /abuse_reports: the drawer's form fields. */
export const reportAbuseMutation = () =>
  mutationOptions({
    mutationKey: ['abuse_reports', 'create'],
    mutationFn: (input: AbuseReportInput) => api.post<AbuseReport>('/abuse_reports', { body: input }),
  });

/** GET /admin/abuse_reports (administrators only). */
export const abuseReportListQuery = (params: { status: 'open' | 'closed'; page: number }) =>
  queryOptions({
    queryKey: abuseReportKeys.list(params),
    queryFn: ({ signal }) => api.getPage<AbuseReport>('/admin/abuse_reports', { signal, query: { status: params.status, page: params.page, per_page: ABUSE_REPORTS_PER_PAGE } }),
    placeholderData: keepPreviousData,
  });

/** PUT /admin/abuse_reports/:id: close (resolve) or reopen a report. */
export const setAbuseReportStatusMutation = () =>
  mutationOptions({
    mutationKey: [...abuseReportKeys.all, 'status'],
    mutationFn: ({ id, status }: { id: number; status: 'open' | 'closed' }) => api.put<AbuseReport>(`/admin/abuse_reports/${id}`, { body: { status } }),
  });
