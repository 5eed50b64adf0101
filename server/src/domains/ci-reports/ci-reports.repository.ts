/** The SQL of pipelines' test and coverage reports (ci_test_report_jobs, ci_test_cases, ci_coverage_files). */
import { on, type Queryable } from '../../platform/db/database.js';
import type { ParsedTestCase, TestCaseStatus } from './junit-parser.js';
import type { LineHits } from './cobertura-parser.js';

export interface ReportArtifact {
  file_type: string;
  file_format: string;
  object_key: string;
}

export interface SuiteCounts {
  suite_name: string;
  build_ids: number[];
  suite_error: string | null;
  total_time: number;
  total_count: number;
  success_count: number;
  failed_count: number;
  skipped_count: number;
  error_count: number;
}

export interface StoredTestCase {
  job_id: number;
  suite_name: string;
  status: TestCaseStatus;
  name: string;
  classname: string;
  file: string | null;
  execution_time: number;
  system_output: string | null;
  attachment: string | null;
}

/** Jobs that count in a pipeline's reports: its latest ones (a retried job's report is replaced by its retry's). */
const LATEST = 'JOIN ci_builds b ON b.id = j.job_id AND NOT b.retried';

export function createCiReportsRepository(db: Queryable) {
  return {
    /** The report artifacts of a job of these types (`junit`, `cobertura`). */
    async artifacts(jobId: number, types: readonly string[]): Promise<ReportArtifact[]> {
      const { rows } = await db.query<ReportArtifact>('SELECT file_type, file_format, object_key FROM ci_job_artifacts WHERE job_id = $1 AND file_type = ANY($2::text[]) ORDER BY id', [jobId, types]);
      return rows;
    },

    /** Replaces a job's test cases (an ingest that runs again writes the same rows). */
    async replaceTestReport(job: { id: number; pipeline_id: number }, suiteName: string, suiteError: string | null, cases: readonly ParsedTestCase[], tx: Queryable): Promise<void> {
      await tx.query('DELETE FROM ci_test_report_jobs WHERE job_id = $1', [job.id]);
      await tx.query('INSERT INTO ci_test_report_jobs (job_id, pipeline_id, suite_name, suite_error) VALUES ($1, $2, $3, $4)', [job.id, job.pipeline_id, suiteName, suiteError]);
      // in batches: one statement's arrays stay a few MB
      for (let at = 0; at < cases.length; at += 5_000) {
        const batch = cases.slice(at, at + 5_000);
        await tx.query(
          `INSERT INTO ci_test_cases (pipeline_id, job_id, suite_name, status, name, classname, file, execution_time, system_output, attachment)
           SELECT $1, $2, $3, status, name, classname, file, execution_time, system_output, attachment
             FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::text[], $10::text[]) AS c(status, name, classname, file, execution_time, system_output, attachment)`,
          [
            job.pipeline_id,
            job.id,
            suiteName,
            batch.map((c) => c.status),
            batch.map((c) => c.name),
            batch.map((c) => c.classname),
            batch.map((c) => c.file),
            batch.map((c) => c.executionTime),
            batch.map((c) => c.systemOutput),
            batch.map((c) => c.attachment),
          ],
        );
      }
    },

    /** Does the pipeline have test reports (parsed, from its latest jobs)? */
    async hasTestReports(pipelineId: number): Promise<boolean> {
      const { rows } = await db.query(`SELECT 1 FROM ci_test_report_jobs j ${LATEST} WHERE j.pipeline_id = $1 LIMIT 1`, [pipelineId]);
      return rows.length > 0;
    },

    /**
     * Does one of the pipeline's latest jobs have a JUnit artifact whose ingest has not written its
     * suite yet? Its report is being computed (GitLab answers 204 and the widget polls).
     */
    async hasUnparsedTestReports(pipelineId: number): Promise<boolean> {
      const { rows } = await db.query(
        `SELECT 1 FROM ci_builds b JOIN ci_job_artifacts a ON a.job_id = b.id AND a.file_type = 'junit'
          WHERE b.pipeline_id = $1 AND NOT b.retried AND NOT EXISTS (SELECT 1 FROM ci_test_report_jobs j WHERE j.job_id = b.id) LIMIT 1`,
        [pipelineId],
      );
      return rows.length > 0;
    },

    /** Per suite: its jobs, first error, and counts by status, computed by the database. */
    async suiteCounts(pipelineId: number): Promise<SuiteCounts[]> {
      const { rows } = await db.query<SuiteCounts>(
        `WITH jobs AS (SELECT j.job_id, j.suite_name, j.suite_error FROM ci_test_report_jobs j ${LATEST} WHERE j.pipeline_id = $1),
              counts AS (
                SELECT c.suite_name, coalesce(sum(c.execution_time), 0)::float8 AS total_time, count(*)::int AS total_count,
                       (count(*) FILTER (WHERE c.status = 'success'))::int AS success_count,
                       (count(*) FILTER (WHERE c.status = 'failed'))::int AS failed_count,
                       (count(*) FILTER (WHERE c.status = 'skipped'))::int AS skipped_count,
                       (count(*) FILTER (WHERE c.status = 'error'))::int AS error_count
                  FROM ci_test_cases c WHERE c.job_id IN (SELECT job_id FROM jobs) GROUP BY c.suite_name)
         SELECT s.suite_name, s.build_ids, s.suite_error,
                coalesce(n.total_time, 0)::float8 AS total_time, coalesce(n.total_count, 0) AS total_count, coalesce(n.success_count, 0) AS success_count,
                coalesce(n.failed_count, 0) AS failed_count, coalesce(n.skipped_count, 0) AS skipped_count, coalesce(n.error_count, 0) AS error_count
           FROM (SELECT suite_name, array_agg(job_id ORDER BY job_id) AS build_ids, (array_agg(suite_error ORDER BY job_id) FILTER (WHERE suite_error IS NOT NULL))[1] AS suite_error
                   FROM jobs GROUP BY suite_name) s
           LEFT JOIN counts n ON n.suite_name = s.suite_name
          ORDER BY s.build_ids[1], s.suite_name`,
        [pipelineId],
      );
      return rows.map((row) => ({ ...row, build_ids: row.build_ids.map(Number) }));
    },

    /** The cases of a pipeline's latest jobs (of one suite when given), in report order. */
    async testCases(pipelineId: number, suiteName?: string): Promise<StoredTestCase[]> {
      const { rows } = await db.query<StoredTestCase>(
        `SELECT c.job_id, c.suite_name, c.status, c.name, c.classname, c.file, c.execution_time, c.system_output, c.attachment
           FROM ci_test_cases c JOIN ci_builds b ON b.id = c.job_id AND NOT b.retried
          WHERE c.pipeline_id = $1 AND ($2::text IS NULL OR c.suite_name = $2) ORDER BY c.id`,
        [pipelineId, suiteName ?? null],
      );
      return rows;
    },

    /**
     * The rows a merge request's test comparison needs, in report order: the head pipeline's
     * failed and errored cases, its passed cases whose key (suite, class, name) failed or errored
     * in the base (the resolved ones), and the base's failed and errored cases (their keys and
     * status). Every other case only counts, and the counts come from suiteCounts: a report of
     * thousands of passing cases is never read to compare it.
     */
    async comparisonCases(headId: number, baseId: number | null): Promise<{ head: StoredTestCase[]; base: StoredTestCase[] }> {
      const { rows } = await db.query<StoredTestCase & { side: 'head' | 'base'; id: number }>(
        `WITH base_failures AS (
           SELECT c.id, c.job_id, c.suite_name, c.status, c.name, c.classname
             FROM ci_test_cases c JOIN ci_builds b ON b.id = c.job_id AND NOT b.retried
            WHERE c.pipeline_id = $2 AND c.status IN ('failed', 'error'))
         SELECT 'head' AS side, c.id, c.job_id, c.suite_name, c.status, c.name, c.classname, c.file, c.execution_time, c.system_output, c.attachment
           FROM ci_test_cases c JOIN ci_builds b ON b.id = c.job_id AND NOT b.retried
          WHERE c.pipeline_id = $1
            AND (c.status IN ('failed', 'error')
                 OR (c.status = 'success' AND EXISTS (SELECT 1 FROM base_failures f WHERE f.suite_name = c.suite_name AND f.classname = c.classname AND f.name = c.name)))
         UNION ALL
         SELECT 'base', f.id, f.job_id, f.suite_name, f.status, f.name, f.classname, NULL, 0, NULL, NULL FROM base_failures f
         ORDER BY 1 DESC, 2`,
        [headId, baseId],
      );
      const head: StoredTestCase[] = [];
      const base: StoredTestCase[] = [];
      // the id only ordered the rows
      for (const { side, id: _id, ...testCase } of rows) (side === 'head' ? head : base).push(testCase);
      return { head, base };
    },

    /** Replaces a job's line coverage. */
    async replaceCoverage(job: { id: number; pipeline_id: number }, files: ReadonlyMap<string, LineHits>, tx: Queryable): Promise<void> {
      await tx.query('DELETE FROM ci_coverage_files WHERE job_id = $1', [job.id]);
      const entries = [...files];
      for (let at = 0; at < entries.length; at += 1_000) {
        const batch = entries.slice(at, at + 1_000);
        await tx.query(
          `INSERT INTO ci_coverage_files (job_id, pipeline_id, path, lines) SELECT $1, $2, path, lines::jsonb FROM unnest($3::text[], $4::text[]) AS f(path, lines)`,
          [job.id, job.pipeline_id, batch.map(([path]) => path), batch.map(([, lines]) => JSON.stringify(lines))],
        );
      }
    },

    async hasCoverage(pipelineId: number): Promise<boolean> {
      const { rows } = await db.query(`SELECT 1 FROM ci_coverage_files j ${LATEST} WHERE j.pipeline_id = $1 LIMIT 1`, [pipelineId]);
      return rows.length > 0;
    },

    /** Line hits of these paths in a pipeline's latest jobs (one row per job and path). */
    async coverageOf(pipelineId: number, paths: readonly string[]): Promise<{ path: string; lines: LineHits }[]> {
      if (paths.length === 0) return [];
      const { rows } = await db.query<{ path: string; lines: LineHits }>(`SELECT j.path, j.lines FROM ci_coverage_files j ${LATEST} WHERE j.pipeline_id = $1 AND j.path = ANY($2::text[]) ORDER BY j.job_id`, [pipelineId, paths]);
      return rows;
    },

    /** A job's coverage from its log, and the pipeline's: the average of its latest jobs' (GitLab's Ci::Pipeline#coverage). */
    async setJobCoverage(jobId: number, pipelineId: number, coverage: number, tx?: Queryable): Promise<void> {
      const q = on(db, tx);
      await q.query('UPDATE ci_builds SET coverage = $2 WHERE id = $1', [jobId, coverage]);
      await q.query(
        `UPDATE ci_pipelines SET coverage = (SELECT avg(coverage) FROM ci_builds WHERE pipeline_id = $1 AND NOT retried AND coverage IS NOT NULL) WHERE id = $1`,
        [pipelineId],
      );
    },

    /** The newest pipeline of a ref at a commit (GitLab's merge request head and base pipelines). */
    /** The pipeline's latest jobs that have a coverage (GitLab's builds_with_coverage), in order of creation. */
    async jobsWithCoverage(pipelineId: number): Promise<{ name: string; coverage: number }[]> {
      const { rows } = await db.query<{ name: string; coverage: number }>('SELECT name, coverage FROM ci_builds WHERE pipeline_id = $1 AND NOT retried AND coverage IS NOT NULL ORDER BY id', [pipelineId]);
      return rows.map((row) => ({ name: row.name, coverage: Number(row.coverage) }));
    },

    /** A pipeline's coverage (the average of its latest jobs'). */
    async pipelineCoverage(pipelineId: number): Promise<number | null> {
      const { rows } = await db.query<{ coverage: number | null }>('SELECT coverage FROM ci_pipelines WHERE id = $1', [pipelineId]);
      return rows[0]?.coverage == null ? null : Number(rows[0].coverage);
    },

    async pipelineAt(projectId: number, ref: string, sha: string): Promise<{ id: number } | null> {
      const { rows } = await db.query<{ id: number }>('SELECT id FROM ci_pipelines WHERE project_id = $1 AND ref = $2 AND sha = $3 ORDER BY id DESC LIMIT 1', [projectId, ref, sha]);
      return rows[0] ? { id: Number(rows[0].id) } : null;
    },
  };
}

export type CiReportsRepository = ReturnType<typeof createCiReportsRepository>;
