import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../app/client';
import { ApiError } from '../../../lib/api-error';
import type { TestReportsComparison } from './test-summary-text';

const projectPath = (fullPath: string) => `/${fullPath.split('/').map(encodeURIComponent).join('/')}`;

/** The interval GitLab's `reports_response` asks for (Poll-Interval) while a comparison is computed. */
export const REPORT_POLL_INTERVAL_MS = 3000;

/** `test_reports.json` as the widget reads it: being computed (204), absent (400), or the comparison. */
export type TestReportsState = { kind: 'parsing' } | { kind: 'none' } | { kind: 'parsed'; comparison: TestReportsComparison };

export const reportKeys = {
  all: (fullPath: string, iid: number) => ['merge-widget', fullPath, iid, 'reports'] as const,
};

/**
 * The head pipeline's test reports against the base pipeline's. Keyed by the head pipeline and its
 * status, so the comparison is read again when the widget sees the pipeline change; polled only
 * while the server is still computing it (GitLab's 204).
 */
export const testReportsQuery = (fullPath: string, iid: number, pipeline: { id: string; status: string }) =>
  queryOptions({
    queryKey: [...reportKeys.all(fullPath, iid), 'test', pipeline.id, pipeline.status] as const,
    queryFn: async ({ signal }): Promise<TestReportsState> => {
      try {
        const comparison = await api.get<TestReportsComparison | undefined>(`${projectPath(fullPath)}/-/merge_requests/${iid}/test_reports.json`, { signal });
        return comparison === undefined ? { kind: 'parsing' } : { kind: 'parsed', comparison };
      } catch (error) {
        // GitLab's 400 {"status_reason": …}: the head pipeline has no test report, and the widget shows none
        if (error instanceof ApiError && error.status === 400) return { kind: 'none' };
        throw error;
      }
    },
    refetchInterval: (query) => (query.state.data?.kind === 'parsing' ? REPORT_POLL_INTERVAL_MS : false),
  });
