/** The merge request's line coverage (GitLab's coverage_reports.json) and how one line reads it. Pure except the query. */
import { queryOptions } from '@tanstack/react-query';

export interface CoverageFiles {
  /** path → line number (as text) → hits */
  files: Record<string, Record<string, number>>;
}

export type LineCoverageState = { covered: true; hits: number } | { covered: false } | null;

/** A new line's coverage: covered (hits > 0), not covered (0), or null when the report does not instrument it. */
export function lineCoverage(report: CoverageFiles | undefined, path: string, line: number | null | undefined): LineCoverageState {
  if (!report || line === undefined || line === null) return null;
  const hits = report.files[path]?.[String(line)];
  if (hits === undefined) return null;
  return hits > 0 ? { covered: true, hits } : { covered: false };
}

/** GitLab's tooltip of a line's coverage mark. */
export function coverageTitle(state: Exclude<LineCoverageState, null>): string {
  return state.covered ? `Test coverage: ${state.hits} hits` : 'No test coverage';
}

/**
 * `GET /<project>/-/merge_requests/:iid/coverage_reports.json`, a web path of the project (not under
 * /api/v4), read with the session cookie. A 400 (no coverage report in the head pipeline) is no
 * coverage, not an error: the Changes tab then shows no marks. Read again every 30 seconds while a
 * pipeline may still be adding its report.
 */
export const coverageReportsQuery = (fullPath: string, iid: number) =>
  queryOptions({
    queryKey: ['coverage-reports', fullPath, iid] as const,
    queryFn: async ({ signal }): Promise<CoverageFiles | null> => {
      const path = `/${fullPath.split('/').map(encodeURIComponent).join('/')}/-/merge_requests/${iid}/coverage_reports.json`;
      const response = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
      if (response.status === 400 || response.status === 404) return null;
      if (!response.ok) throw new Error(`coverage reports answered ${response.status}`);
      return (await response.json()) as CoverageFiles;
    },
    refetchInterval: 30_000,
  });
