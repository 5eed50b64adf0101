/**
 * Pipelines' test and coverage reports. When a CI job completes (a job listener, in the
 * transition's transaction) an ingest job is enqueued; it reads the job's coverage from its log
 * with the job's `coverage` regex, and parses its `junit` and Cobertura report artifacts into
 * rows (ci-reports.repository.ts), replacing what an earlier run of the same ingest wrote. Reads
 * (the pipeline's test report and summary, a merge request's comparison and coverage) then come
 * from those rows: counts by the database, no artifact is read again.
 */
import type { Readable } from 'node:stream';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { readTree } from '../../git/tree.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { NotFoundError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/queue.js';
import type { ObjectStore } from '../../platform/storage/index.js';
import { isCompleted } from '../pipelines/engine/status.js';
import type { JobListener, JobRow } from '../pipelines/pipeline.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { CiReportsRepository, StoredTestCase, SuiteCounts } from './ci-reports.repository.js';
import { coverageDelta } from './coverage-delta.js';
import { CoberturaParseError, parseCobertura, type LineHits } from './cobertura-parser.js';
import { extractCoverage } from './coverage-regex.js';
import { JunitParseError, MAX_TEST_CASES, parseJunit, type ParsedTestCase } from './junit-parser.js';
import { reportFiles } from './report-files.js';
import { compareTestReports, seconds, sortTestCases, testSuiteName } from './test-reports.js';

export const INGEST_REPORTS_JOB = 'ci_reports.ingest';

/** The most of a job's log the coverage regex reads: its end, where coverage is printed. */
const COVERAGE_LOG_BYTES = 8 * 1024 * 1024;

const JUNIT_TYPES = ['junit'];
const COVERAGE_TYPES = ['cobertura'];

async function readAll(stream: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string));
  return Buffer.concat(pieces);
}

/** Does a job produce anything the ingest reads? */
function hasReports(job: JobRow): boolean {
  const artifacts = job.options.artifacts as { reports?: Record<string, unknown> } | undefined;
  return !!job.coverage_regex || !!artifacts?.reports?.junit || !!artifacts?.reports?.coverage_report;
}

export function createCiReports(deps: {
  db: Pick<Database, 'transaction'>;
  reports: CiReportsRepository;
  queue: Pick<JobQueue, 'enqueue'>;
  store: Pick<ObjectStore, 'get'>;
  readLog: (jobId: number) => Promise<Readable>;
  pipelines: Pick<PipelinesRepository, 'findJob' | 'findPipeline' | 'pipelineById'>;
  projects: Pick<ProjectsService, 'find'>;
  projectPath: (projectId: number) => Promise<string | null>;
  authorizer: Pick<Authorizer, 'authorize'>;
  repoPath: (projectId: number) => string;
}) {
  /** The junit reports of a job as GitLab parses them: cases, or the suite error that stopped it. */
  async function parseJunitReports(job: JobRow): Promise<{ cases: ParsedTestCase[]; error: string | null }> {
    const cases: ParsedTestCase[] = [];
    try {
      for (const artifact of await deps.reports.artifacts(job.id, JUNIT_TYPES)) {
        for (const file of await reportFiles(artifact.file_format, await readAll(await deps.store.get(artifact.object_key)))) {
          cases.push(...parseJunit(file, { maxCases: MAX_TEST_CASES - cases.length }));
        }
      }
      return { cases, error: null };
    } catch (error) {
      if (error instanceof JunitParseError && error.kind === 'xml') return { cases: [], error: `JUnit XML parsing failed: ${error.message}` };
      return { cases: [], error: `JUnit data parsing failed: ${(error as Error).message}` };
    }
  }

  async function parseCoverageReports(job: JobRow): Promise<Map<string, LineHits>> {
    const merged = new Map<string, LineHits>();
    const artifacts = await deps.reports.artifacts(job.id, COVERAGE_TYPES);
    if (artifacts.length === 0) return merged;
    const projectPath = (await deps.projectPath(job.project_id)) ?? '';
    const pipeline = await deps.pipelines.pipelineById(job.pipeline_id);
    const tree = pipeline ? await readTree(deps.repoPath(job.project_id), pipeline.sha, undefined, { recursive: true }).catch(() => null) : null;
    const worktreePaths = tree ? new Set(tree.filter((entry) => entry.type === 'blob').map((entry) => entry.path)) : undefined;
    for (const artifact of artifacts) {
      try {
        for (const file of await reportFiles(artifact.file_format, await readAll(await deps.store.get(artifact.object_key)))) {
          for (const [path, lines] of parseCobertura(file, { projectPath, worktreePaths })) {
            const into = merged.get(path) ?? {};
            for (const [line, hits] of Object.entries(lines)) into[line] = (into[line] ?? 0) + hits;
            merged.set(path, into);
          }
        }
      } catch (error) {
        // GitLab drops a coverage report it cannot parse; the others still count
        if (!(error instanceof CoberturaParseError)) throw error;
      }
    }
    return merged;
  }

  async function readPipeline(actor: Actor, idOrPath: string | number, pipelineId: number) {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, 'read_pipeline', { project });
    const pipeline = await deps.pipelines.findPipeline(project.id, pipelineId);
    if (!pipeline) throw new NotFoundError();
    return { project, pipeline };
  }

  return {
    /** Told of every job transition: a completed CI job with reports or a coverage regex gets its ingest job. */
    tracking: {
      async jobMoved(job: JobRow, tx: Queryable): Promise<void> {
        if (job.type !== 'build' || !isCompleted(job.status) || !hasReports(job)) return;
        await deps.queue.enqueue(INGEST_REPORTS_JOB, { jobId: job.id }, { tx });
      },
    } satisfies JobListener,

    /** The ingest job: idempotent, every run replaces what the one before wrote. */
    async ingest(jobId: number): Promise<void> {
      const job = await deps.pipelines.findJob(jobId);
      if (!job) return;
      let coverage: number | null = null;
      if (job.coverage_regex) {
        const log = await readAll(await deps.readLog(job.id));
        const tail = log.length > COVERAGE_LOG_BYTES ? log.subarray(log.length - COVERAGE_LOG_BYTES) : log;
        coverage = extractCoverage(tail.toString('utf8'), job.coverage_regex);
      }
      const junit = (await deps.reports.artifacts(job.id, JUNIT_TYPES)).length > 0 ? await parseJunitReports(job) : null;
      const lines = await parseCoverageReports(job);
      await deps.db.transaction(async (tx) => {
        if (coverage !== null) await deps.reports.setJobCoverage(job.id, job.pipeline_id, coverage, tx);
        if (junit) await deps.reports.replaceTestReport(job, testSuiteName(job.name), junit.error, junit.cases, tx);
        if (lines.size > 0) await deps.reports.replaceCoverage(job, lines, tx);
      });
    },

    /** GET /projects/:id/pipelines/:pipeline_id/test_report_summary (GitLab's TestReportSummaryEntity). */
    async testReportSummary(actor: Actor, idOrPath: string | number, pipelineId: number) {
      const { pipeline } = await readPipeline(actor, idOrPath, pipelineId);
      return summarize(await deps.reports.suiteCounts(pipeline.id));
    },

    /** GET /projects/:id/pipelines/:pipeline_id/test_report: every suite with its sorted cases (TestReportEntity). */
    async testReport(actor: Actor, idOrPath: string | number, pipelineId: number) {
      const { project, pipeline } = await readPipeline(actor, idOrPath, pipelineId);
      const [suites, cases] = await Promise.all([deps.reports.suiteCounts(pipeline.id), deps.reports.testCases(pipeline.id)]);
      return { project, suites, cases };
    },

    /**
     * A merge request's test reports against its base (GitLab's compare_test_reports): the head
     * pipeline's suites with new, existing and resolved failures and errors. `parsed: false` when
     * the head pipeline has no test reports (GitLab's 400 "This merge request does not have test reports"),
     * with `parsing: true` while one of its JUnit artifacts is not ingested yet (GitLab's 204).
     */
    async compareForMergeRequest(mergeRequest: { sourceProjectId: number; sourceBranch: string; headSha: string; targetProjectId: number; targetBranch: string; baseSha: string | null }) {
      const head = await deps.reports.pipelineAt(mergeRequest.sourceProjectId, mergeRequest.sourceBranch, mergeRequest.headSha);
      if (!head) return { parsed: false as const, parsing: false };
      // GitLab compares once every report is parsed; until then the caller is told to ask again
      if (await deps.reports.hasUnparsedTestReports(head.id)) return { parsed: false as const, parsing: true };
      if (!(await deps.reports.hasTestReports(head.id))) return { parsed: false as const, parsing: false };
      const base = mergeRequest.baseSha ? await deps.reports.pipelineAt(mergeRequest.targetProjectId, mergeRequest.targetBranch, mergeRequest.baseSha) : null;
      // only the failures of both sides (and the head's cases that fixed one) are read; the head's totals are counted by the database
      const [suites, cases] = await Promise.all([deps.reports.suiteCounts(head.id), deps.reports.comparisonCases(head.id, base?.id ?? null)]);
      const totals = new Map(suites.map((suite) => [suite.suite_name, suite.total_count]));
      return { parsed: true as const, comparison: compareTestReports(cases.base, cases.head, suites.map((suite) => suite.suite_name), totals) };
    },

    /**
     * The widget's coverage line for a merge request's head pipeline: the jobs whose coverage the
     * pipeline's averages (GitLab's builds_with_coverage) and the change against the base pipeline,
     * the target branch's at the diff's base commit (GitLab's pipeline_coverage_delta).
     */
    async coverageSummary(head: { id: number; coverage: number | null }, target: { targetProjectId: number; targetBranch: string; baseSha: string | null }) {
      if (head.coverage === null) return { delta: null, jobs: [] };
      const base = target.baseSha ? await deps.reports.pipelineAt(target.targetProjectId, target.targetBranch, target.baseSha) : null;
      const [jobs, baseCoverage] = await Promise.all([deps.reports.jobsWithCoverage(head.id), base ? deps.reports.pipelineCoverage(base.id) : Promise.resolve(null)]);
      return { delta: coverageDelta(head.coverage, baseCoverage), jobs };
    },

    /**
     * A merge request's line coverage (GitLab's coverage_reports): the hits of every line of the
     * changed files, from the head pipeline's Cobertura reports. `parsed: false` when it has none.
     */
    async coverageForMergeRequest(mergeRequest: { sourceProjectId: number; sourceBranch: string; headSha: string }, paths: readonly string[]) {
      const head = await deps.reports.pipelineAt(mergeRequest.sourceProjectId, mergeRequest.sourceBranch, mergeRequest.headSha);
      if (!head || !(await deps.reports.hasCoverage(head.id))) return { parsed: false as const };
      const files: Record<string, LineHits> = {};
      for (const row of await deps.reports.coverageOf(head.id, paths)) {
        const into = (files[row.path] ??= {});
        for (const [line, hits] of Object.entries(row.lines)) into[line] = (into[line] ?? 0) + hits;
      }
      return { parsed: true as const, files };
    },
  };
}

/** The summary's totals over its suites. */
export function summarize(suites: readonly SuiteCounts[]) {
  const total = { time: 0, count: 0, success: 0, failed: 0, skipped: 0, error: 0, suite_error: null as string | null };
  for (const suite of suites) {
    total.time += suite.total_time;
    total.count += suite.total_count;
    total.success += suite.success_count;
    total.failed += suite.failed_count;
    total.skipped += suite.skipped_count;
    total.error += suite.error_count;
    total.suite_error ??= suite.suite_error;
  }
  total.time = seconds(total.time);
  return { total, suites };
}

export type CiReports = ReturnType<typeof createCiReports>;
export type { Project, StoredTestCase, SuiteCounts };
export { sortTestCases };
