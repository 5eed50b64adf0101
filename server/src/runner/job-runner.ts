import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extractZip, listFiles, selectFiles, writeZip } from './archive.js';
import { cacheFile } from './cache-key.js';
import type { RunnerClient } from './client.js';
import { containerName, dockerRunArgs, dockerServiceArgs, networkName, serviceEnvironment, splitServiceEnvironment } from './docker-command.js';
import { expandVariables } from './expand.js';
import { gitFetchCommands } from './git-commands.js';
import { runsWhen, type JobOutcome, type JobPayload, type JobStep } from './job.js';
import { runInGroup, type RunResult } from './process.js';
import { buildStepScript, errorLine, notice, sectionEnd, sectionStart } from './script.js';
import { createTrace, traceChecksum, type Trace } from './trace.js';

export interface JobRunnerOptions {
  client: RunnerClient;
  buildsDir: string;
  executor: 'shell' | 'docker';
  /** aborted on shutdown: the job is stopped and reported failed (runner_system_failure) */
  shutdown: AbortSignal;
  log: (message: string) => void;
  /** the keep-alive period's half while the job is quiet (new log text goes out every 250 ms, or this often when shorter) */
  updateIntervalMs?: number;
}

const DEFAULT_JOB_TIMEOUT = 3600;
/** New log text waits at most this long before it is sent (gitlab-runner waits up to 3 s; live pages want under 1 s). */
const LOG_SEND_MS = 250;
const AFTER_SCRIPT_TIMEOUT = 300;

/** Runs one job from its payload to its final `PUT /jobs/:id`. Never throws. */
export async function runJob(job: JobPayload, options: JobRunnerOptions): Promise<JobOutcome> {
  const { client } = options;
  const ref = { id: job.id, token: job.token };
  const variables = job.variables ?? [];
  const maskedValues = [job.token, ...variables.filter((v) => v.masked).map((v) => v.value)];
  const cancel = new AbortController();
  let cancelReason: 'canceled' | 'aborted' | 'shutdown' | undefined;
  const stop = (reason: 'canceled' | 'aborted' | 'shutdown') => {
    if (!cancelReason) cancelReason = reason;
    cancel.abort();
  };
  const onJobStatus = (status: string, http: number) => {
    if (status === 'canceling' || status === 'canceled') stop('canceled');
    else if (status === 'failed' || http === 403 || http === 404) stop('aborted');
  };
  const trace = createTrace({ patch: (start, chunk) => client.patchTrace(ref, start, chunk), maskedValues, onJobStatus });
  const onShutdown = () => stop('shutdown');
  options.shutdown.addEventListener('abort', onShutdown, { once: true });

  // While the job runs: new log text goes out within LOG_SEND_MS (an open job page shows it within a
  // second); after two update intervals without sending, a `running` keep-alive whose Job-Status tells of a cancel.
  const updateMs = options.updateIntervalMs ?? 3000;
  const keepAliveMs = 2 * updateMs;
  let lastSent = 0;
  let lastContact = Date.now();
  const ticker = setInterval(() => {
    const size = trace.size();
    if (size !== lastSent) {
      lastSent = size;
      lastContact = Date.now();
      void trace.flush().catch(() => undefined);
    } else if (Date.now() - lastContact >= keepAliveMs) {
      lastContact = Date.now();
      void client.updateJob(ref, { state: 'running' }).then((answer) => answer.jobStatus && onJobStatus(answer.jobStatus, answer.status), () => undefined);
    }
  }, Math.min(LOG_SEND_MS, updateMs));

  // GitLab's job_info has no project path; CI_PROJECT_PATH among the variables has it.
  const projectPath = variables.find((v) => v.key === 'CI_PROJECT_PATH')?.value || job.job_info?.project_full_path || `project-${job.job_info?.project_id ?? 0}`;
  const jobDir = join(options.buildsDir, 'builds', String(job.id));
  const workDir = join(jobDir, projectPath.split('/').pop()!.replace(/[^A-Za-z0-9._-]/g, '_') || 'project');
  const tmpDir = `${workDir}.tmp`;
  const timeout = job.runner_info?.timeout && job.runner_info.timeout > 0 ? job.runner_info.timeout : DEFAULT_JOB_TIMEOUT;
  const deadline = Date.now() + timeout * 1000;
  const remaining = () => Math.max(1, Math.ceil((deadline - Date.now()) / 1000));

  let outcome: JobOutcome;
  try {
    trace.write(`Running with tributary runner (${options.executor} executor)\n`);
    outcome = await execute(job, { ...options, trace, workDir, tmpDir, signal: cancel.signal, remaining, timeout, projectPath });
  } catch (error) {
    trace.write(errorLine(`ERROR: Job failed (system failure): ${error instanceof Error ? error.message : String(error)}`));
    outcome = { state: 'failed', failureReason: 'runner_system_failure' };
  } finally {
    clearInterval(ticker);
    options.shutdown.removeEventListener('abort', onShutdown);
  }
  if (cancelReason === 'canceled') outcome = { state: 'canceled' };
  else if (cancelReason === 'shutdown' && outcome.state !== 'success') outcome = { state: 'failed', failureReason: 'runner_system_failure' };

  if (outcome.state === 'success') trace.write(notice('Job succeeded'));
  else if (outcome.state === 'canceled') trace.write(errorLine('ERROR: Job failed: canceled'));
  else if (outcome.failureReason === 'job_execution_timeout') trace.write(errorLine(`ERROR: Job failed: execution took longer than ${formatDuration(timeout)} seconds`));
  else if (outcome.failureReason === 'script_failure') trace.write(errorLine(`ERROR: Job failed: exit code ${outcome.exitCode ?? 1}`));
  await rm(jobDir, { recursive: true, force: true }).catch(() => undefined);
  await finish(ref, trace, outcome, options).catch((error) => options.log(`job ${job.id}: the final update failed: ${error instanceof Error ? error.message : error}`));
  return outcome;
}

/** A duration as Go prints one (gitlab-runner's message): `1h0m0s`, `10m0s`, `5s`. */
export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? `${h}h${m}m${s}s` : m ? `${m}m${s}s` : `${s}s`;
}

/** The last log bytes, then the final state; 202 means "ask again", 412 "send the whole log again". */
async function finish(ref: { id: number; token: string }, trace: Trace, outcome: JobOutcome, options: JobRunnerOptions): Promise<void> {
  await trace.finish();
  const state = outcome.state === 'canceled' ? 'failed' : outcome.state;
  const failureReason = outcome.state === 'canceled' ? 'job_canceled' : outcome.failureReason;
  for (let attempt = 0; attempt < 30; attempt++) {
    const content = trace.content();
    const answer = await options.client.updateJob(ref, {
      state,
      ...(failureReason ? { failure_reason: failureReason } : {}),
      ...(outcome.exitCode !== undefined ? { exit_code: outcome.exitCode } : {}),
      output: { checksum: traceChecksum(content), bytesize: content.length },
    });
    if (answer.status === 200 || answer.status === 403 || answer.status === 404) return;
    if (answer.status === 412) {
      trace.resetSent();
      await trace.flush();
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(answer.interval ?? 1, 10) * 1000));
  }
  throw new Error('the server did not accept the final state');
}

interface ExecuteContext extends JobRunnerOptions {
  trace: Trace;
  workDir: string;
  tmpDir: string;
  signal: AbortSignal;
  remaining: () => number;
  timeout: number;
  projectPath: string;
}

async function section<T>(trace: Trace, name: string, header: string, body: () => Promise<T>): Promise<T> {
  trace.write(sectionStart(name, header));
  try {
    return await body();
  } finally {
    trace.write(sectionEnd(name));
  }
}

async function execute(job: JobPayload, ctx: ExecuteContext): Promise<JobOutcome> {
  const { trace, workDir, tmpDir } = ctx;
  const out = (chunk: Buffer) => trace.write(chunk);
  const docker = ctx.executor === 'docker';
  const image = job.image?.name;
  if (docker && !image) throw new Error('the Docker executor needs an image (the job has none)');

  await section(trace, 'prepare_executor', docker ? `Preparing the "docker" executor` : `Preparing the "shell" executor`, async () => {
    trace.write(docker ? `Using Docker executor with image ${image} ...\n` : 'Using Shell (bash) executor...\n');
    await rm(workDir, { recursive: true, force: true });
    await rm(tmpDir, { recursive: true, force: true });
    await mkdir(workDir, { recursive: true });
    await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  });

  const env = await jobEnvironment(job, ctx);
  const run = (command: string, args: readonly string[], timeoutSeconds: number, stdin?: string, extraEnv?: NodeJS.ProcessEnv): Promise<RunResult> =>
    runInGroup(command, args, { cwd: workDir, env: extraEnv ? { ...env, ...extraEnv } : env, onOutput: out, timeoutSeconds, signal: ctx.signal, ...(stdin !== undefined ? { stdin } : {}) });

  const sourcesFailed = await section(trace, 'get_sources', 'Getting source from Git repository', async () => {
    trace.write(`Fetching changes with git depth set to ${job.git_info.depth ?? 0}...\n`);
    const gitEnv = { ...env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_ASKPASS: 'true' };
    for (const args of gitFetchCommands({ repoUrl: job.git_info.repo_url, sha: job.git_info.sha, refspecs: job.git_info.refspecs, depth: job.git_info.depth })) {
      const result = await runInGroup('git', args, { cwd: workDir, env: gitEnv, onOutput: out, timeoutSeconds: ctx.remaining(), signal: ctx.signal });
      if (result.exitCode !== 0) return result;
    }
    trace.write(`Checking out ${job.git_info.sha.slice(0, 8)} as detached HEAD (ref is ${job.git_info.ref})...\n`);
    return undefined;
  });
  if (sourcesFailed) return stoppedOutcome(sourcesFailed) ?? { state: 'failed', failureReason: 'runner_system_failure' };

  for (const [index, cache] of (job.cache ?? []).entries()) {
    if (cache.policy === 'push') continue;
    await section(trace, `restore_cache${index ? `_${index}` : ''}`, 'Restoring cache', async () => {
      const file = cacheFile(ctx.buildsDir, ctx.projectPath, cache.key);
      if (!(await exists(file))) return trace.write(`Cache not found for key ${cache.key ?? 'default'}\n`);
      await extractZip(file, workDir).then(
        () => trace.write(`Successfully extracted cache for key ${cache.key ?? 'default'}\n`),
        (error: Error) => trace.write(`WARNING: Failed to extract cache: ${error.message}\n`),
      );
    });
  }

  const dependencies = (job.dependencies ?? []).filter((dependency) => dependency.artifacts_file);
  if (dependencies.length) {
    const downloaded = await section(trace, 'download_artifacts', 'Downloading artifacts', async () => {
      for (const dependency of dependencies) {
        trace.write(`Downloading artifacts for ${dependency.name} (${dependency.id})...\n`);
        const file = join(tmpDir, `artifacts-${dependency.id}.zip`);
        try {
          await ctx.client.downloadArtifacts(dependency, file);
          await extractZip(file, workDir);
        } catch (error) {
          trace.write(errorLine(`ERROR: Downloading artifacts from coordinator... ${error instanceof Error ? error.message : error}`));
          return false;
        } finally {
          await rm(file, { force: true });
        }
      }
      return true;
    });
    if (!downloaded) return { state: 'failed', failureReason: 'runner_system_failure' };
  }

  let failed = false;
  let outcome: JobOutcome = { state: 'success', exitCode: 0 };
  const steps = job.steps ?? [];
  for (const step of steps.filter((s) => s.name !== 'after_script')) {
    if (!runsWhen(step.when, failed)) continue;
    const result = await section(trace, step.name === 'script' ? 'step_script' : `step_${step.name}`, 'Executing "step_script" stage of the job script', () =>
      runStep(step, ctx.remaining(), ctx, run, env, docker ? image : undefined, job),
    );
    const stopped = stoppedOutcome(result);
    if (stopped) return stopped;
    if (result.exitCode !== 0) {
      failed = true;
      outcome = { state: 'failed', failureReason: 'script_failure', exitCode: result.exitCode };
    }
  }

  for (const step of steps.filter((s) => s.name === 'after_script')) {
    await section(trace, 'after_script', 'Running after_script', async () => {
      trace.write('Running after script...\n');
      // after_script runs whatever happened, with its own timeout, and its failure does not change the job's
      const result = await runStep(step, Math.min(step.timeout ?? AFTER_SCRIPT_TIMEOUT, AFTER_SCRIPT_TIMEOUT), { ...ctx, signal: new AbortController().signal }, (c, a, t, i, e) =>
        runInGroup(c, a, { cwd: workDir, env: e ? { ...env, ...e } : env, onOutput: out, timeoutSeconds: t, ...(i !== undefined ? { stdin: i } : {}) }), env, docker ? image : undefined, job);
      if (result.exitCode !== 0) trace.write(`WARNING: after_script failed, but job will continue unaffected: exit code ${result.exitCode}\n`);
    });
  }

  for (const [index, cache] of (job.cache ?? []).entries()) {
    if (cache.policy === 'pull' || !runsWhen(cache.when, failed)) continue;
    await section(trace, `archive_cache${index ? `_${index}` : ''}`, 'Saving cache', async () => {
      const untracked = cache.untracked ? await untrackedFiles(workDir, env) : [];
      const files = selectFiles(await listFiles(workDir), { paths: cache.paths, untracked });
      if (files.length === 0) return trace.write('WARNING: no files to cache\n');
      const file = cacheFile(ctx.buildsDir, ctx.projectPath, cache.key);
      await writeZip(workDir, files, `${file}.part`);
      await rename(`${file}.part`, file);
      trace.write(`Created cache (${files.length} files) for key ${cache.key ?? 'default'}\n`);
    });
  }

  for (const artifact of job.artifacts ?? []) {
    if (!runsWhen(artifact.when, failed)) continue;
    const uploaded = await section(trace, `upload_artifacts_on_${failed ? 'failure' : 'success'}`, 'Uploading artifacts for ' + (failed ? 'failed job' : 'successful job'), async () => {
      const untracked = artifact.untracked ? await untrackedFiles(workDir, env) : [];
      const files = selectFiles(await listFiles(workDir), { paths: artifact.paths, exclude: artifact.exclude, untracked });
      if (files.length === 0) {
        trace.write('WARNING: no matching files. Ensure that the artifact path is relative to the working directory\n');
        return true;
      }
      const type = artifact.artifact_type || 'archive';
      const file = join(tmpDir, `artifacts-${type}.zip`);
      await writeZip(workDir, files, file);
      const { size } = await stat(file);
      trace.write(`Uploading artifacts (${files.length} files, ${size} bytes)...\n`);
      try {
        await ctx.client.uploadArtifact({ id: job.id, token: job.token }, file, size, { artifact_type: type, artifact_format: 'zip', expire_in: artifact.expire_in, filename: 'artifacts.zip' });
        trace.write(notice('Uploading artifacts as "archive" to coordinator... 201 Created'));
        return true;
      } catch (error) {
        trace.write(errorLine(`ERROR: Uploading artifacts as "archive" to coordinator... ${error instanceof Error ? error.message : error}`));
        return false;
      }
    });
    if (!uploaded && outcome.state === 'success') outcome = { state: 'failed', failureReason: 'runner_system_failure' };
  }

  await section(trace, 'cleanup_file_variables', 'Cleaning up project directory and file based variables', () => rm(tmpDir, { recursive: true, force: true }));
  return outcome;
}

function stoppedOutcome(result: RunResult): JobOutcome | undefined {
  if (result.stopped === 'timeout') return { state: 'failed', failureReason: 'job_execution_timeout' };
  if (result.stopped === 'canceled') return { state: 'canceled' };
  return undefined;
}

async function runStep(step: JobStep, timeoutSeconds: number, ctx: ExecuteContext, run: (command: string, args: readonly string[], timeout: number, stdin?: string, extraEnv?: NodeJS.ProcessEnv) => Promise<RunResult>, env: NodeJS.ProcessEnv, image: string | undefined, job: JobPayload): Promise<RunResult> {
  const scriptPath = join(ctx.tmpDir, `${step.name}.sh`);
  await writeFile(scriptPath, buildStepScript(step.script, ctx.workDir), { mode: 0o700 });
  if (!image) return run('bash', ['--noprofile', '--norc', scriptPath], timeoutSeconds);
  // Docker: a per-job network with the services, then the script in the job's image.
  await runInGroup('docker', ['network', 'create', networkName(job.id)], { cwd: ctx.workDir, env, onOutput: () => undefined });
  try {
    for (const [index, service] of (job.services ?? []).entries()) {
      if (!service.name) continue;
      // the service's variables reach docker through its client's environment, by name
      const { clientEnv, fileLines, skipped } = splitServiceEnvironment(serviceEnvironment(job.variables ?? [], service.variables));
      let envFile: string | undefined;
      if (fileLines.length > 0) {
        envFile = join(ctx.tmpDir, `service-${index}.env`);
        await writeFile(envFile, fileLines.join('\n') + '\n', { mode: 0o600 });
      }
      for (const name of skipped) ctx.trace.write(`WARNING: service variable ${name} has a line break and cannot be passed to the service\n`);
      await run('docker', dockerServiceArgs(job.id, { name: service.name, alias: service.alias, entrypoint: service.entrypoint, command: service.command }, index, Object.keys(clientEnv), envFile), 300, undefined, clientEnv);
    }
    const names = Object.keys(env).filter((name) => name !== 'PATH' && name !== 'HOME');
    return await run('docker', dockerRunArgs({ jobId: job.id, image, workDir: ctx.workDir, tmpDir: ctx.tmpDir, variableNames: names, scriptPath, entrypoint: job.image?.entrypoint }), timeoutSeconds);
  } finally {
    const cleanup = ['rm', '--force', containerName(job.id, 'build'), ...(job.services ?? []).map((_, index) => containerName(job.id, `service-${index}`))];
    await runInGroup('docker', cleanup, { cwd: ctx.workDir, env, onOutput: () => undefined });
    await runInGroup('docker', ['network', 'rm', networkName(job.id)], { cwd: ctx.workDir, env, onOutput: () => undefined });
  }
}

/** The job's variables as its environment; a file variable's value is written to a file whose path is the value. */
async function jobEnvironment(job: JobPayload, ctx: ExecuteContext): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: process.env.LANG ?? 'C.UTF-8',
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER: 'yes',
    CI_BUILDS_DIR: ctx.buildsDir,
    CI_PROJECT_DIR: ctx.workDir,
    CI_JOB_TIMEOUT: String(ctx.timeout),
  };
  for (const variable of expandVariables(job.variables ?? [])) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable.key)) continue;
    if (variable.file) {
      const path = join(ctx.tmpDir, variable.key);
      await writeFile(path, variable.value, { mode: 0o600 });
      await chmod(path, 0o600);
      env[variable.key] = path;
    } else {
      env[variable.key] = variable.value;
    }
  }
  env.CI_PROJECT_DIR = ctx.workDir;
  return env;
}

async function untrackedFiles(workDir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const chunks: Buffer[] = [];
  await runInGroup('git', ['-c', 'core.quotePath=false', 'ls-files', '--others', '--exclude-standard', '-z'], { cwd: workDir, env, onOutput: (chunk) => chunks.push(chunk) });
  return Buffer.concat(chunks).toString().split('\0').filter(Boolean);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}
