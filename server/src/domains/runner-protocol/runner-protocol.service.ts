/**
 * The server side of GitLab Runner's protocol (lib/api/ci/runner.rb): a runner asks for a job
 * (long polling), reports its state, and the job token it was given authenticates the job's own
 * calls. Jobs move only through the pipeline engine (`assignJob`, `recordJobResult`).
 */
import { jobTokenActor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { digest, safeEqual } from '../../auth/secrets.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { maskSecrets } from '../ci-variables/mask-secrets.js';
import { expandVariables } from '../pipelines/config/merge.js';
import type { JobLogs } from '../job-logs/job-logs.service.js';
import { parseLogContentRange } from '../job-logs/content-range.js';
import type { PipelineEngine } from '../pipelines/pipeline-engine.service.js';
import type { JobRow } from '../pipelines/pipeline.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import { protectionsFor } from '../protected-branches/push-rules.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { ProtectedTagsRepository } from '../protected-tags/protected-tags.repository.js';
import { tagProtectionsFor } from '../protected-tags/tag-rules.js';
import type { Runner } from '../runners/runner.js';
import type { RunnerContact, RunnersService } from '../runners/runners.service.js';
import type { User } from '../users/user.js';
import type { UsersRepository } from '../users/users.repository.js';
import { jobPayload, RUNNER_FAILURE_REASONS, type DependencyArtifacts, type StoredVariable } from './job-payload.js';
import type { JobQueueSignal } from './job-queue-signal.js';
import { generateJobToken, isJobTokenLive } from './job-token.js';
import type { PendingCandidate, RunnerJobsRepository } from './runner-jobs.repository.js';

/** How long a job request is held when no job is waiting (GitLab Workhorse's apiCiLongPollingDuration). */
export const LONG_POLL_SECONDS = 50;

/** How often the runner should send its log (X-GitLab-Trace-Update-Interval): GitLab's default, 60 s, and its UpdateBuildStateService backoff. */
export const TRACE_UPDATE_INTERVAL_SECONDS = 60;
export const STATE_UPDATE_BACKOFF_SECONDS = 5;

export type JobRequestResult = { job: Record<string, unknown>; lastUpdate: string } | { job: null; lastUpdate: string };

export interface JobUpdateInput {
  state?: string;
  failureReason?: string;
  exitCode?: number | null;
}

/** What GitLab answers a state update with: the HTTP status and the job's status for `Job-Status`. */
export interface JobUpdateResult {
  status: 200 | 202;
  jobStatus: string;
}

/** A job found by its job token (the job's own calls: state, log, artifacts, git, API). */
export interface AuthenticatedJob {
  job: JobRow;
}

const UPDATE_STATES = ['running', 'success', 'failed'] as const;

export function createRunnerProtocol(deps: {
  runners: Pick<RunnersService, 'authenticate' | 'canPick' | 'recordContact' | 'linkJobToManager' | 'heartbeatForJob'>;
  jobs: RunnerJobsRepository;
  pipelines: Pick<PipelinesRepository, 'findJob' | 'findJobByTokenHash' | 'variables'>;
  engine: Pick<PipelineEngine, 'assignJob' | 'recordJobResult' | 'transitionJob'>;
  /** `needs: project:` — finding the other project and asking whether the job's token may read its jobs */
  projects?: Pick<ProjectsService, 'find'>;
  authorizer?: Pick<Authorizer, 'can'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  protectedTags: Pick<ProtectedTagsRepository, 'listForProject'>;
  users: Pick<UsersRepository, 'findById'>;
  signal: JobQueueSignal;
  /** job logs: the runner's chunks by offset, then one object when the job ends (domains/job-logs) */
  jobLogs: Pick<JobLogs, 'append' | 'size' | 'read' | 'finalize'>;
  serverUrl: string;
  /** the project, group and instance variables of a job (CI/CD settings); none until they are wired */
  storedVariables?: (job: JobRow, context: { protectedRef: boolean; fromFork: boolean }) => Promise<StoredVariable[]>;
  /** the archives of jobs (for `dependencies`) */
  archivesOf?: (jobIds: readonly number[]) => Promise<{ job_id: number; filename: string; size: number }[]>;
  longPollSeconds?: number;
  now?: () => Date;
  /** told after a log chunk is stored (live job pages); a failure here never refuses the chunk */
  onLogAppended?: (job: JobRow, size: number) => Promise<void>;
}) {
  const now = deps.now ?? (() => new Date());
  const longPollMs = () => (deps.longPollSeconds ?? LONG_POLL_SECONDS) * 1000;

  async function isProtectedRef(projectId: number, ref: string, tag: boolean): Promise<boolean> {
    // A merge request pipeline's refs/merge-requests/:iid/… is no branch: never protected (GitLab's protected_for?).
    if (ref.startsWith('refs/')) return false;
    if (tag) return tagProtectionsFor(ref, await deps.protectedTags.listForProject(projectId)).length > 0;
    return protectionsFor(ref, await deps.protectedBranches.listForProject(projectId)).length > 0;
  }

  /** The candidates this runner may run (canPick), oldest first; protection is looked up once per project and ref. */
  async function pickable(runner: Runner, candidates: PendingCandidate[]): Promise<number[]> {
    const allowed: number[] = [];
    const protectedCache = new Map<string, boolean>();
    for (const candidate of candidates) {
      const key = `${candidate.project_id}:${candidate.tag ? 't' : 'b'}:${candidate.ref}`;
      let protectedRef = protectedCache.get(key);
      if (protectedRef === undefined && runner.access_level === 'ref_protected') {
        protectedRef = await isProtectedRef(candidate.project_id, candidate.ref, candidate.tag);
        protectedCache.set(key, protectedRef);
      }
      const groupAncestry = candidate.namespace_kind === 'group' ? candidate.traversal_ids : [];
      if (deps.runners.canPick(runner, { projectId: candidate.project_id, groupAncestry, tags: candidate.tags, protectedRef: protectedRef ?? false })) allowed.push(candidate.id);
    }
    return allowed;
  }

  /**
   * Claims a job the runner may run and starts it; null when there is none. Candidates are
   * judged first (canPick needs protection lookups), then claimed under SKIP LOCKED; when
   * others took them all, the queue is read again.
   */
  async function tryPick(runner: Runner): Promise<{ job: JobRow; token: string; crossProject: { id: number; name: string }[] } | null> {
    for (;;) {
      const candidates = await deps.jobs.pendingCandidates();
      const allowed = await pickable(runner, candidates);
      if (allowed.length === 0) return null;
      const claimed = await deps.jobs.claimOne(runner.id, allowed);
      if (claimed === null) continue;
      // GitLab's pre-assign check: a job whose dependencies cannot be had fails instead of running.
      const pending = await deps.pipelines.findJob(claimed);
      const crossProject = pending ? await crossProjectDependencies(pending) : [];
      if (crossProject === null) {
        await deps.engine.transitionJob(claimed, 'drop', { failure_reason: 'missing_dependency_failure', runner_id: null }).catch(() => undefined);
        continue;
      }
      const token = generateJobToken();
      const job = await deps.engine.assignJob(claimed, { runnerId: runner.id, tokenHash: digest(token) }).catch(() => null);
      if (job) return { job, token, crossProject };
      // Canceled (or otherwise moved) between the claim and the start: give it back, look again.
      await deps.jobs.releaseClaim(claimed, runner.id);
    }
  }

  /**
   * The jobs whose artifacts a job receives (GitLab's Ci::BuildDependencies): its `needs` with
   * `artifacts: true` for a DAG job, else its `dependencies:` list, else every job of the earlier
   * stages; only those with an archive. Their downloads authenticate with this job's token.
   */
  /**
   * `needs: [{pipeline: $PARENT_PIPELINE_ID, job: build}]` (GitLab's cross-pipeline
   * dependencies): the pipeline id is expanded with the job's and its pipeline's variables, and
   * only an ancestor pipeline of this one (parent-child) is read; `artifacts: false` takes none.
   */
  async function crossPipelineDependencies(job: JobRow): Promise<{ id: number; name: string }[]> {
    const cross = Array.isArray(job.options.cross_dependencies) ? (job.options.cross_dependencies as { job?: unknown; pipeline?: unknown; artifacts?: unknown }[]) : [];
    const wanted = cross.filter((need) => typeof need.pipeline === 'string' && typeof need.job === 'string' && need.artifacts !== false);
    if (wanted.length === 0) return [];
    const variables = await needVariables(job);
    const found: { id: number; name: string }[] = [];
    for (const need of wanted) {
      const id = Number(expandVariables(need.pipeline as string, variables));
      if (!Number.isSafeInteger(id) || id <= 0) continue;
      const other = await deps.jobs.ancestorPipelineJob(job.pipeline_id, id, need.job as string);
      if (other) found.push(other);
    }
    return found;
  }

  /** A job's variables as its `needs:` entries expand them: its YAML variables and its pipeline's. */
  async function needVariables(job: JobRow): Promise<Record<string, string>> {
    const variables: Record<string, string> = { CI_PIPELINE_ID: String(job.pipeline_id) };
    for (const variable of job.yaml_variables) variables[variable.key] = variable.value;
    for (const variable of await deps.pipelines.variables(job.pipeline_id)) variables[variable.key] = variable.value;
    return variables;
  }

  /**
   * `needs: [{project: group/other, job: build, ref: main}]` (GitLab's cross-project
   * dependencies): the latest successful job of that name on that ref of the other project, read
   * as the job's token reads (the job's user must be allowed to read that project's jobs, and
   * that project's job token allowlist must name this job's project). Null when one of them
   * cannot be had: GitLab then fails the job with `missing_dependency_failure` before it runs.
   * `artifacts: false` asks for nothing.
   */
  async function crossProjectDependencies(job: JobRow): Promise<{ id: number; name: string }[] | null> {
    const cross = Array.isArray(job.options.cross_dependencies) ? (job.options.cross_dependencies as { job?: unknown; project?: unknown; ref?: unknown; artifacts?: unknown }[]) : [];
    const wanted = cross.filter((need) => typeof need.project === 'string' && need.artifacts !== false);
    if (wanted.length === 0) return [];
    if (!deps.projects || !deps.authorizer) return null;
    const context = await deps.jobs.jobContext(job.id);
    const userId = job.user_id ?? context?.pipeline_user_id ?? null;
    const user = userId === null ? undefined : await deps.users.findById(userId);
    if (!user || user.state !== 'active') return null;
    const actor = jobTokenActor(user, job.project_id);
    const variables = await needVariables(job);
    const found: { id: number; name: string }[] = [];
    for (const need of wanted) {
      const path = expandVariables(need.project as string, variables);
      const ref = typeof need.ref === 'string' ? expandVariables(need.ref, variables) : '';
      const name = typeof need.job === 'string' ? expandVariables(need.job, variables) : '';
      const project = await deps.projects.find(actor, path).catch(() => null);
      if (!project || !(await deps.authorizer.can(actor, 'read_build', { project }))) return null;
      const other = await deps.jobs.latestSuccessfulJob(project.id, ref, name);
      if (!other) return null;
      found.push(other);
    }
    return found;
  }

  async function dependenciesOf(job: JobRow, token: string, crossProject: readonly { id: number; name: string }[]): Promise<DependencyArtifacts[]> {
    if (!deps.archivesOf) return [];
    const earlier = await deps.jobs.earlierJobs(job.pipeline_id, job.stage_idx);
    const named = Array.isArray(job.options.dependencies) ? (job.options.dependencies as string[]) : null;
    const wanted =
      job.scheduling_type === 'dag'
        ? earlier.filter((other) => job.needs.some((need) => need.artifacts && need.name === other.name))
        : named
          ? earlier.filter((other) => named.includes(other.name))
          : earlier;
    const crossed = await crossPipelineDependencies(job);
    const all = [...wanted, ...crossed, ...crossProject];
    const archives = await deps.archivesOf(all.map((other) => other.id));
    return archives.map((archive) => ({
      id: archive.job_id,
      name: all.find((other) => other.id === archive.job_id)!.name,
      token,
      artifacts_file: { filename: archive.filename, size: archive.size },
    }));
  }

  async function payloadFor(runner: Runner, job: JobRow, token: string, crossProject: readonly { id: number; name: string }[]): Promise<Record<string, unknown>> {
    const context = await deps.jobs.jobContext(job.id);
    if (!context) throw new NotFoundError('Job');
    const protectedRef = await isProtectedRef(job.project_id, context.ref, context.tag);
    const userId = job.user_id ?? context.pipeline_user_id;
    const user = userId === null ? undefined : await deps.users.findById(userId);
    return jobPayload({
      job,
      context,
      token,
      serverUrl: deps.serverUrl,
      runnerMaximumTimeout: runner.maximum_timeout,
      protectedRef,
      user: user ? { id: user.id, username: user.username, name: user.name, email: user.email } : null,
      pipelineVariables: await deps.pipelines.variables(job.pipeline_id),
      storedVariables: deps.storedVariables ? await deps.storedVariables(job, { protectedRef, fromFork: context.from_fork }) : [],
      dependencies: await dependenciesOf(job, token, crossProject),
      now: now(),
    });
  }

  async function authenticateRunner(token: string | undefined): Promise<Runner> {
    if (!token) throw ValidationError.missing('token');
    const runner = await deps.runners.authenticate(token);
    if (!runner) throw new ForbiddenError();
    return runner;
  }

  /** The job of a job token, whatever its status; null for an unknown token. */
  async function jobForToken(token: string | undefined): Promise<JobRow | null> {
    if (!token) return null;
    const presented = digest(token);
    const job = await deps.pipelines.findJobByTokenHash(presented);
    if (!job?.token_hash || !safeEqual(job.token_hash, presented)) return null;
    return job;
  }

  /** The values a job's log hides: its masked variables' and, when known, its token. */
  async function secretsOf(job: JobRow, token?: string): Promise<string[]> {
    const context = deps.storedVariables ? await deps.jobs.jobContext(job.id) : null;
    const stored =
      context && deps.storedVariables ? await deps.storedVariables(job, { protectedRef: await isProtectedRef(job.project_id, context.ref, context.tag), fromFork: context.from_fork }) : [];
    const values = stored.filter((variable) => variable.masked && variable.value !== '').map((variable) => variable.value);
    return token ? [...values, token] : values;
  }

  async function readAll(jobId: number): Promise<Buffer> {
    const pieces: Buffer[] = [];
    for await (const piece of await deps.jobLogs.read(jobId)) pieces.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string));
    return Buffer.concat(pieces);
  }

  /** The log becomes one object when its job ends, its secrets masked on the way. */
  async function finalizeLog(job: JobRow, token?: string): Promise<void> {
    const secrets = await secretsOf(job, token);
    await deps.jobLogs.finalize(job.id, (log) => Buffer.from(maskSecrets(log.toString('utf8'), secrets)));
  }

  return {
    finalizeLog,
    secretsOf,

    /**
     * PATCH /jobs/:id/trace: a chunk of the log at the offset `Content-Range` gives (`start-end`).
     * Accepted (202) when it starts where the stored log ends; otherwise 416 with the stored size,
     * from which the runner sends again. Only while the job runs (403 after, with its status).
     */
    async appendLog(jobId: number, token: string | undefined, contentRange: string | undefined, data: Buffer): Promise<{ status: 202 | 416; size: number; jobStatus: string }> {
      const job = await this.authenticateJob(jobId, token);
      if (contentRange === undefined || contentRange === '') throw new ValidationError('400 Missing header Content-Range');
      const range = parseLogContentRange(contentRange);
      if (!range || range.end - range.start + 1 !== data.length) {
        return { status: 416, size: await deps.jobLogs.size(job.id), jobStatus: job.status };
      }
      const result = await deps.jobLogs.append(job.id, range.start, data);
      await deps.jobs.touch(job.id);
      await deps.runners.heartbeatForJob(job.id);
      if (result.accepted && data.length > 0) await deps.onLogAppended?.(job, result.size).catch(() => undefined);
      return { status: result.accepted ? 202 : 416, size: result.size, jobStatus: job.status };
    },

    /** GET /projects/:id/jobs/:job_id/trace: the whole log, secrets masked (the caller has checked who may read it). */
    async readLog(job: JobRow): Promise<Buffer> {
      const log = await readAll(job.id);
      const secrets = await secretsOf(job);
      return secrets.length === 0 ? log : Buffer.from(maskSecrets(log.toString('utf8'), secrets));
    },

    /** The log's size in bytes as stored (chunks while the job runs, then the final object). */
    logSize: (job: JobRow) => deps.jobLogs.size(job.id),

    /**
     * The log from byte `offset` on (a `Range: bytes=<offset>-` read of a live page), with the
     * log's size; null when `offset` is at or past the end (nothing new). Offsets count the
     * stored bytes. Secrets are masked in what is sent (the runner masks before sending; this is
     * the second line).
     */
    async readLogFrom(job: JobRow, offset: number): Promise<{ data: Buffer; size: number } | null> {
      const size = await deps.jobLogs.size(job.id);
      if (offset >= size) return null;
      const pieces: Buffer[] = [];
      for await (const piece of await deps.jobLogs.read(job.id, offset)) pieces.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string));
      const raw = Buffer.concat(pieces);
      const secrets = await secretsOf(job);
      const data = secrets.length === 0 ? raw : Buffer.from(maskSecrets(raw.toString('utf8'), secrets));
      return { data, size: offset + raw.length };
    },

    /**
     * POST /jobs/request: the runner's contact is recorded (on the manager of its `system_id`),
     * then a job it may run is claimed and started. `lastUpdate` is GitLab's queue value
     * (X-GitLab-Last-Update): a runner that sends back the current one has seen the queue as it
     * is, so it is held (GitLab Workhorse's long polling) until the queue changes — a job became
     * pending in any process — or the long-polling time is over; another value (an old one,
     * another process's) is answered at once, as GitLab's Rails does. A request without one looks
     * and, finding nothing, is held too, so that a client that does not echo the value is not
     * answered in a loop. A paused runner is treated as one with nothing to run (canPick). With
     * no job, `job` is null (204) and `lastUpdate` the value of the last look.
     */
    async requestJob(token: string | undefined, input: RunnerContact & { lastUpdate?: string }, abort?: AbortSignal): Promise<JobRequestResult> {
      const runner = await authenticateRunner(token);
      await deps.runners.recordContact(runner, input);
      await deps.signal.start();
      const deadline = Date.now() + longPollMs();
      let hold = input.lastUpdate !== undefined && input.lastUpdate !== '' && input.lastUpdate === deps.signal.lastUpdate();
      for (;;) {
        const seen = deps.signal.version();
        const seenValue = deps.signal.lastUpdate();
        if (!hold) {
          const picked = await tryPick(runner);
          // A value that is never current: the runner's next request looks at the queue at once (another job may wait).
          if (picked) {
            await deps.runners.linkJobToManager(runner, input.systemId, picked.job.id);
            return { job: await payloadFor(runner, picked.job, picked.token, picked.crossProject), lastUpdate: `${seenValue}.picked` };
          }
          if (input.lastUpdate && input.lastUpdate !== seenValue) return { job: null, lastUpdate: seenValue };
        }
        hold = false;
        const remaining = deadline - Date.now();
        if (remaining <= 0 || abort?.aborted || deps.signal.closed()) return { job: null, lastUpdate: seenValue };
        await deps.signal.waitForChange(seen, remaining, abort);
        if (deps.signal.version() === seen) return { job: null, lastUpdate: seenValue };
      }
    },

    /**
     * The job a job token belongs to, for the job's own calls. 403 for an unknown token, a token
     * of another job, or a job no longer running (a finished job's token is dead). The job is
     * returned with the 403 so that the route can still send `Job-Status`.
     */
    async authenticateJob(jobId: number, token: string | undefined): Promise<JobRow> {
      if (!token) throw new ForbiddenError();
      const job = await jobForToken(token);
      if (!job || job.id !== jobId) throw new ForbiddenError();
      if (!isJobTokenLive(job.status)) throw new JobNotRunningError(job.status);
      return job;
    },

    /** The running job of a CI_JOB_TOKEN (git over HTTP, the API's job-token scope); null when unknown or dead. */
    async liveJobForToken(token: string): Promise<JobRow | null> {
      const job = await jobForToken(token);
      return job && isJobTokenLive(job.status) ? job : null;
    },

    /**
     * PUT /jobs/:id: `running` is a keep-alive; `success` and `failed` end the job through the
     * engine (a job being canceled ends canceled). GitLab's UpdateBuildStateService.
     */
    async updateJob(jobId: number, token: string | undefined, input: JobUpdateInput): Promise<JobUpdateResult> {
      const job = await this.authenticateJob(jobId, token);
      const state = input.state;
      if (state !== undefined && !(UPDATE_STATES as readonly string[]).includes(state)) throw new ValidationError('400 (Bad request) "state" does not have a valid value');
      await deps.jobs.touch(job.id);
      await deps.runners.heartbeatForJob(job.id);
      if (state === undefined || state === 'running') return { status: 200, jobStatus: job.status };
      const failureReason = input.failureReason && (RUNNER_FAILURE_REASONS as readonly string[]).includes(input.failureReason) ? input.failureReason : 'unknown_failure';
      let moved: JobRow;
      try {
        moved = await deps.engine.recordJobResult(job.id, { status: state as 'success' | 'failed', ...(state === 'failed' ? { failureReason } : {}), ...(input.exitCode !== undefined ? { exitCode: input.exitCode } : {}) });
      } catch {
        // Another request ended it first: answer with what it is now.
        const current = await deps.pipelines.findJob(job.id);
        throw new JobNotRunningError(current?.status ?? job.status);
      }
      // A log left in chunks (the store unreachable now) is finalized by the stuck-jobs sweep.
      await finalizeLog(moved, token).catch(() => undefined);
      return { status: 200, jobStatus: moved.status };
    },

    /**
     * Who a CI_JOB_TOKEN acts as: the job's user (who played it, or the pipeline's) in the job's
     * project, while the job runs. Null for an unknown or dead token, or a job without a user.
     */
    async jobTokenIdentity(token: string): Promise<{ user: User; projectId: number; jobId: number } | null> {
      const job = await jobForToken(token);
      if (!job || !isJobTokenLive(job.status)) return null;
      const context = await deps.jobs.jobContext(job.id);
      const userId = job.user_id ?? context?.pipeline_user_id ?? null;
      const user = userId === null ? undefined : await deps.users.findById(userId);
      if (!user || user.state !== 'active') return null;
      return { user, projectId: job.project_id, jobId: job.id };
    },

    /** Keeps a job alive from a log chunk (the stuck sweep counts silence from the last update). */
    touch: (jobId: number) => deps.jobs.touch(jobId),
  };
}

/** 403 for a job no longer running; carries its status for the `Job-Status` header. */
export class JobNotRunningError extends ForbiddenError {
  constructor(readonly jobStatus: string) {
    super('403 Forbidden - Job is not processing on runner');
  }
}

export type RunnerProtocol = ReturnType<typeof createRunnerProtocol>;
