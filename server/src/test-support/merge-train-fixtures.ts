/**
 * Fixtures for merge train tests: a project with merged results pipelines and merge trains on, a
 * `.gitlab-ci.yml` whose one job runs for merge request pipelines, branches pushed with the real
 * git CLI, merge requests, and a runner speaking the runner protocol (POST /jobs/request, PUT
 * /jobs/:id) whose verdict on each job depends on the files of the commit it tests, so that "a
 * car breaks the build" or "two cars break it only together" are facts of the code under test.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './eventually.js';
import type { RepositoryFixtures } from './repository-fixtures.js';
import { gitCli, type GitCli } from './server.js';

export const TRAIN_CI_CONFIG = ['stages: [test]', 'test:', '  stage: test', '  script: make test', '  rules:', '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', ''].join('\n');

const RUNNER_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'gitlab-runner 17.5.0 (17-5-stable; go1.22.7; linux/amd64)' };
const RUNNER_INFO = { name: 'gitlab-runner', version: '17.5.0', executor: 'shell', features: { variables: true, refspecs: true, masking: true, raw_variables: true, return_exit_code: true, trace_checksum: true } };

export interface RunnerJob {
  id: number;
  token: string;
  sha: string;
  ref: string;
  /** the merge request the job's pipeline is for (CI_MERGE_REQUEST_IID) */
  iid: number | null;
  /** the files at the root of the tested commit */
  files: string[];
}

export type Verdict = 'success' | 'failed';

/**
 * gitlab-runner's side of the protocol, against the server at `url`: ask for a job once, send its
 * log and report its end. `filesOf` names the files of the commit a job tests.
 */
export function runnerClient(url: string, runnerToken: string, filesOf: (sha: string) => string[]) {
  /** gitlab-runner asks for a job once: the job, or null when none is pending. */
  async function requestJob(): Promise<RunnerJob | null> {
    const response = await fetch(`${url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { ...RUNNER_HEADERS, 'RUNNER-TOKEN': runnerToken },
      body: JSON.stringify({ info: RUNNER_INFO, token: runnerToken, last_update: '' }),
    });
    if (response.status !== 201) {
      await response.arrayBuffer();
      return null;
    }
    const payload = (await response.json()) as { id: number; token: string; git_info: { sha: string; ref: string }; variables: Array<{ key: string; value: string }> };
    const iid = payload.variables.find((variable) => variable.key === 'CI_MERGE_REQUEST_IID')?.value;
    return { id: payload.id, token: payload.token, sha: payload.git_info.sha, ref: payload.git_info.ref, iid: iid ? Number(iid) : null, files: filesOf(payload.git_info.sha) };
  }

  /** The runner sends the job's log and reports its end. */
  async function finishJob(job: RunnerJob, verdict: Verdict, log = verdict === 'success' ? 'ok\n' : 'FAIL: the build is broken\n'): Promise<void> {
    const body = Buffer.from(`$ make test\n${log}`);
    const trace = await fetch(`${url}/api/v4/jobs/${job.id}/trace`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'text/plain', 'JOB-TOKEN': job.token, 'Content-Range': `0-${body.length - 1}` },
      body,
    });
    await trace.arrayBuffer();
    const update = await fetch(`${url}/api/v4/jobs/${job.id}`, {
      method: 'PUT',
      headers: { ...RUNNER_HEADERS, 'JOB-TOKEN': job.token },
      body: JSON.stringify({ info: RUNNER_INFO, token: job.token, state: verdict, ...(verdict === 'failed' ? { failure_reason: 'script_failure', exit_code: 1 } : { exit_code: 0 }) }),
    });
    await update.arrayBuffer();
    if (update.status !== 200) throw new Error(`finishing job ${job.id} answered ${update.status}`);
  }

  return { requestJob, finishJob };
}

export async function mergeTrainFixtures(fx: RepositoryFixtures, name: string, ciConfig = TRAIN_CI_CONFIG) {
  const project = await fx.createProject(name);
  const runner = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { id: number; token: string };
  const cli: GitCli = gitCli({ url: fx.server.url, username: 'root', password: fx.server.root.token });
  await cli.git(['clone', cli.repoUrl(project.path_with_namespace), 'repo']);
  await cli.git(['config', 'user.email', 'root@example.com'], { cwd: 'repo' });
  await cli.git(['config', 'user.name', 'Root'], { cwd: 'repo' });
  writeFileSync(join(cli.dir, 'repo', '.gitlab-ci.yml'), ciConfig);
  await cli.git(['add', '.gitlab-ci.yml'], { cwd: 'repo' });
  await cli.git(['commit', '-m', 'Add CI'], { cwd: 'repo' });
  await cli.git(['push', 'origin', 'main'], { cwd: 'repo' });
  const settings = await fx.call('PUT', `/projects/${project.id}`, { body: { merge_pipelines_enabled: true, merge_trains_enabled: true } });
  if (settings.status !== 200) throw new Error(`enabling merge trains answered ${settings.status}`);
  const repoPath = fx.repoPath(project.id);

  const filesOf = (sha: string) => execFileSync('git', ['-C', repoPath, 'ls-tree', '--name-only', sha], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const tipOf = (branch: string) => execFileSync('git', ['-C', repoPath, 'rev-parse', `refs/heads/${branch}`], { encoding: 'utf8' }).trim();

  /** A branch from main's current tip with `file` added (or changed), pushed; answers its head. */
  async function pushBranch(branch: string, file: string, content = `${branch}\n`, from = 'origin/main'): Promise<string> {
    await cli.git(['fetch', 'origin'], { cwd: 'repo' });
    await cli.git(['checkout', '-B', branch, from], { cwd: 'repo' });
    writeFileSync(join(cli.dir, 'repo', file), content);
    await cli.git(['add', file], { cwd: 'repo' });
    await cli.git(['commit', '-m', `${branch}: ${file}`], { cwd: 'repo' });
    await cli.git(['push', '-f', 'origin', branch], { cwd: 'repo' });
    return (await cli.git(['rev-parse', 'HEAD'], { cwd: 'repo' })).stdout.trim();
  }

  /** A merge request from a new branch adding `file`; answers its iid once its version is recorded. */
  async function openMergeRequest(branch: string, file: string): Promise<number> {
    await pushBranch(branch, file);
    const created = await fx.call<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { body: { source_branch: branch, target_branch: 'main', title: `Add ${file}` } });
    if (created.status !== 201) throw new Error(`creating the merge request answered ${created.status}`);
    const iid = created.body.iid;
    await eventually(async () => (await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}`)).body.sha, { what: `merge request !${iid}'s head` });
    return iid;
  }

  const { requestJob, finishJob } = runnerClient(fx.server.url, runner.token, filesOf);

  /**
   * Runs every job that becomes pending, judged by `verdict` (merge train jobs; other jobs
   * pass), until `done` answers something truthy.
   */
  async function runUntil<T>(verdict: (job: RunnerJob) => Verdict, done: () => Promise<T | null | undefined | false>, what: string, ms = 60_000): Promise<T> {
    return eventually(
      async () => {
        const job = await requestJob();
        if (job) await finishJob(job, job.ref.endsWith('/train') ? verdict(job) : 'success');
        return done();
      },
      { ms, what },
    );
  }

  return {
    project,
    runner,
    cli,
    repoPath,
    filesOf,
    tipOf,
    pushBranch,
    openMergeRequest,
    requestJob,
    finishJob,
    runUntil,
    /** Runs the pending jobs there are now (merged results pipelines of new merge requests), all passing. */
    async drainJobs(): Promise<void> {
      for (let job = await requestJob(); job; job = await requestJob()) await finishJob(job, 'success');
    },
    mergeRequest: async (iid: number) => (await fx.call<Record<string, any>>('GET', `/projects/${project.id}/merge_requests/${iid}`)).body,
    car: async (iid: number) => fx.call<Record<string, any>>('GET', `/projects/${project.id}/merge_trains/merge_requests/${iid}`),
    addToTrain: (iid: number, body: Record<string, unknown> = {}, token?: string) => fx.call<Array<Record<string, any>>>('POST', `/projects/${project.id}/merge_trains/merge_requests/${iid}`, { body, token }),
    notes: async (iid: number) => ((await fx.call<Array<{ body: string; system: boolean }>>('GET', `/projects/${project.id}/merge_requests/${iid}/notes?per_page=100&sort=asc`)).body ?? []).filter((note) => note.system).map((note) => note.body),
    close: () => cli.close(),
  };
}

export type MergeTrainFixtures = Awaited<ReturnType<typeof mergeTrainFixtures>>;
