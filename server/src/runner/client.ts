import { createWriteStream, openAsBlob } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { JobPayload } from './job.js';
import type { TracePatchAnswer } from './trace.js';

export const RUNNER_VERSION = '17.0.0-tributary';

/** What the runner tells the server about itself (gitlab-runner's `info`, with the features it supports). */
export function runnerInfo(name: string, executor: string) {
  return {
    name,
    version: RUNNER_VERSION,
    revision: 'tributary',
    platform: process.platform,
    architecture: process.arch === 'x64' ? 'amd64' : process.arch,
    executor,
    shell: 'bash',
    features: {
      variables: true, image: executor === 'docker', services: executor === 'docker', artifacts: true, cache: true,
      upload_multiple_artifacts: true, upload_raw_artifacts: false, refspecs: true, masking: true, raw_variables: true,
      artifacts_exclude: true, multi_build_steps: true, trace_reset: true, trace_checksum: true, trace_size: true,
      cancelable: true, return_exit_code: true, shared: false, session: false, terminal: false,
    },
  };
}

export interface UpdateAnswer {
  status: number;
  jobStatus: string | null;
  interval: number | undefined;
}

/**
 * gitlab-runner's calls, over HTTP only, so it works against GitLab as against Tributary: runner
 * calls carry the runner token (body `token` and `RUNNER-TOKEN`), a job's calls its job token
 * (`JOB-TOKEN`). Tokens are never part of an error message.
 */
export function createRunnerClient(options: { url: string; token: string; systemId: string; name: string; executor: string; fetch?: typeof fetch }) {
  const base = `${options.url.replace(/\/+$/, '')}/api/v4`;
  const doFetch = options.fetch ?? fetch;
  const info = runnerInfo(options.name, options.executor);

  async function json(path: string, method: string, body: unknown, headers: Record<string, string>, signal?: AbortSignal) {
    return doFetch(`${base}${path}`, { method, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers }, signal });
  }

  return {
    async verify(): Promise<{ id: number }> {
      const response = await json('/runners/verify', 'POST', { token: options.token, system_id: options.systemId, info }, { 'RUNNER-TOKEN': options.token });
      if (response.status === 200 || response.status === 201) return (await response.json()) as { id: number };
      const text = await response.text().catch(() => '');
      throw new RunnerHttpError(`verifying the runner token failed: ${response.status} ${text.slice(0, 200)}`, response.status);
    },

    /** One job request; long polling is the server's (it may hold the request while no job waits). */
    async requestJob(lastUpdate: string | undefined, signal: AbortSignal): Promise<{ job?: JobPayload; lastUpdate?: string; status: number }> {
      const body = { token: options.token, system_id: options.systemId, info, ...(lastUpdate ? { last_update: lastUpdate } : {}) };
      const response = await json('/jobs/request', 'POST', body, { 'RUNNER-TOKEN': options.token }, signal);
      const nextUpdate = response.headers.get('x-gitlab-last-update') ?? lastUpdate;
      if (response.status === 201 && (response.headers.get('content-type') ?? '').includes('application/json')) {
        return { job: (await response.json()) as JobPayload, lastUpdate: nextUpdate ?? undefined, status: 201 };
      }
      await response.arrayBuffer().catch(() => undefined);
      return { lastUpdate: nextUpdate ?? undefined, status: response.status };
    },

    async updateJob(job: { id: number; token: string }, update: { state: string; failure_reason?: string; exit_code?: number; output?: { checksum: string; bytesize: number } }): Promise<UpdateAnswer> {
      const response = await json(`/jobs/${job.id}`, 'PUT', { token: job.token, info, ...update }, { 'JOB-TOKEN': job.token });
      await response.arrayBuffer().catch(() => undefined);
      const interval = Number(response.headers.get('x-gitlab-trace-update-interval'));
      return { status: response.status, jobStatus: response.headers.get('job-status'), interval: Number.isFinite(interval) && interval > 0 ? interval : undefined };
    },

    async patchTrace(job: { id: number; token: string }, start: number, chunk: Buffer): Promise<TracePatchAnswer> {
      const response = await doFetch(`${base}/jobs/${job.id}/trace`, {
        method: 'PATCH',
        body: new Uint8Array(chunk),
        headers: { 'JOB-TOKEN': job.token, 'Content-Type': 'text/plain', 'Content-Range': `${start}-${start + chunk.length - 1}` },
      });
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status, range: response.headers.get('range'), jobStatus: response.headers.get('job-status') };
    },

    /** `POST …/artifacts/authorize` (GitLab's size check), then the multipart upload with its one `file` part. */
    async uploadArtifact(job: { id: number; token: string }, file: string, size: number, query: { artifact_type: string; artifact_format: string; expire_in?: string; filename: string }): Promise<void> {
      const authorize = await doFetch(`${base}/jobs/${job.id}/artifacts/authorize?${new URLSearchParams({ artifact_type: query.artifact_type, filesize: String(size) })}`, {
        method: 'POST',
        headers: { 'JOB-TOKEN': job.token },
      });
      await authorize.arrayBuffer().catch(() => undefined);
      if (authorize.status === 413) throw new RunnerHttpError(`the artifact is too large (${size} bytes)`, 413);
      if (authorize.status === 403) throw new RunnerHttpError('the server refused the artifact upload (403)', 403);
      // Other answers (GitLab behind Workhorse answers the upload itself; an older server has no authorize call) go on to the upload.
      const form = new FormData();
      form.set('file', await openAsBlob(file), query.filename);
      const params = new URLSearchParams({ artifact_type: query.artifact_type, artifact_format: query.artifact_format, ...(query.expire_in ? { expire_in: query.expire_in } : {}) });
      const response = await doFetch(`${base}/jobs/${job.id}/artifacts?${params}`, { method: 'POST', body: form, headers: { 'JOB-TOKEN': job.token } });
      const text = await response.text().catch(() => '');
      if (response.status !== 201 && response.status !== 200) throw new RunnerHttpError(`uploading artifacts failed: ${response.status} ${text.slice(0, 200)}`, response.status);
    },

    /** Downloads a dependency's artifacts archive with that job's token (the payload's `dependencies[].token`). */
    async downloadArtifacts(dependency: { id: number; token: string }, target: string): Promise<void> {
      const response = await doFetch(`${base}/jobs/${dependency.id}/artifacts`, { headers: { 'JOB-TOKEN': dependency.token }, redirect: 'follow' });
      if (response.status !== 200 || !response.body) {
        await response.arrayBuffer().catch(() => undefined);
        throw new RunnerHttpError(`downloading artifacts of job ${dependency.id} failed: ${response.status}`, response.status);
      }
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(target));
    },
  };
}

export type RunnerClient = ReturnType<typeof createRunnerClient>;

export class RunnerHttpError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}
