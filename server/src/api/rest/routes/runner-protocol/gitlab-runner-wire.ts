/**
 * The HTTP requests the stock gitlab-runner 17.x sends, as it writes them (for tests): Go's
 * net/http with gitlab-runner's headers (User-Agent, Accept only where it decodes a JSON answer,
 * Content-Type, Go's `Accept-Encoding: gzip`), its JSON bodies in its struct field order (empty
 * optional fields left out, as `omitempty` does), and its streamed multipart artifact upload
 * (Go's mime/multipart: a 60-hex-digit boundary, one `file` part, chunked transfer). Header
 * names are as Go writes them (http.Header.Set canonicalizes `JOB-TOKEN` to `Job-Token`). Sent
 * with node:http so that no header is added or changed on the way.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';

export const RUNNER_VERSION = '17.5.0';
export const USER_AGENT = `gitlab-runner ${RUNNER_VERSION} (17-5-stable; go1.22.7; linux/amd64)`;

/** common.VersionInfo of a shell runner with its FeaturesInfo, as RequestJob and UpdateJob send it. */
export const RUNNER_INFO = {
  name: 'gitlab-runner',
  version: RUNNER_VERSION,
  revision: '66269445',
  platform: 'linux',
  architecture: 'amd64',
  executor: 'shell',
  shell: 'bash',
  features: {
    variables: true, image: false, services: false, artifacts: true, cache: true, fallback_cache_keys: true, shared: true,
    upload_multiple_artifacts: true, upload_raw_artifacts: true, session: true, terminal: true, refspecs: true, masking: true,
    proxy: false, raw_variables: true, artifacts_exclude: true, multi_build_steps: true, trace_reset: true, trace_checksum: true,
    trace_size: true, vault_secrets: true, cancelable: true, return_exit_code: true, service_variables: false,
    service_multiple_aliases: false, image_executor_opts: false, service_executor_opts: false, cancel_gracefully: true,
    native_steps_integration: false, two_phase_job_commit: false, job_inputs: false,
  },
  config: { gpus: '' },
};

export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json<T = unknown>(): T;
}

/** One request, its headers exactly these (plus Host and the framing node adds: Content-Length or chunked). */
export function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | Readable): Promise<WireResponse> {
  const url = new URL(`/api/v4/${path}`, baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, ...(Buffer.isBuffer(body) ? { 'Content-Length': String(body.length) } : {}) } }, (res) => {
      const pieces: Buffer[] = [];
      res.on('data', (piece: Buffer) => pieces.push(piece));
      res.on('error', reject);
      res.on('end', () => {
        const buffer = Buffer.concat(pieces);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: buffer, json: () => JSON.parse(buffer.toString('utf8')) });
      });
    });
    req.on('error', reject);
    if (body === undefined) req.end();
    else if (Buffer.isBuffer(body)) req.end(body);
    else {
      // a body that fails mid-way (the runner killed) breaks the connection, as Go's pipe writer does
      body.on('error', (error) => req.destroy(error));
      body.pipe(req);
    }
  });
}

/** The headers of client.doJSON: Accept only when the caller decodes the answer. */
export function jsonHeaders(options: { accept: boolean }): Record<string, string> {
  return {
    'User-Agent': USER_AGENT,
    ...(options.accept ? { Accept: 'application/json' } : {}),
    'Content-Type': 'application/json',
    'Accept-Encoding': 'gzip',
  };
}

/** client.doJSON: JSON body, Accept only when the caller decodes the answer. */
function json(baseUrl: string, method: string, path: string, body: unknown, options: { accept: boolean; headers?: Record<string, string> }) {
  return send(baseUrl, method, path, { ...jsonHeaders(options), ...options.headers }, Buffer.from(JSON.stringify(body)));
}

/** The runner of one config.toml entry: its token and system_id. */
export function gitlabRunner(baseUrl: string, token: string, systemId: string) {
  let lastUpdate = '';
  return {
    get lastUpdate() {
      return lastUpdate;
    },
    set lastUpdate(value: string) {
      lastUpdate = value;
    },
    /** VerifyRunner: common.VerifyRunnerRequest {token, system_id}; the answer is decoded. */
    verify: () => json(baseUrl, 'POST', 'runners/verify', { token, system_id: systemId }, { accept: true, headers: { 'Runner-Token': token } }),
    /** RequestJob: common.JobRequest {info, token, system_id, last_update}; client.setLastUpdate keeps X-GitLab-Last-Update. */
    async requestJob(): Promise<WireResponse> {
      const body = { info: RUNNER_INFO, token, system_id: systemId, ...(lastUpdate ? { last_update: lastUpdate } : {}) };
      const response = await json(baseUrl, 'POST', 'jobs/request', body, { accept: true, headers: { 'Runner-Token': token } });
      const header = response.headers['x-gitlab-last-update'];
      if (typeof header === 'string' && header) lastUpdate = header;
      return response;
    },
    /** UnregisterRunner: common.UnregisterRunnerRequest {token}; no answer decoded. */
    unregister: () => json(baseUrl, 'DELETE', 'runners', { token }, { accept: false }),
    /** ResetToken: common.ResetTokenRequest {token}; the answer is decoded. */
    resetToken: () => json(baseUrl, 'POST', 'runners/reset_authentication_token', { token }, { accept: true }),
  };
}

/** UpdateJob: common.UpdateJobRequest {info, token, state, failure_reason, checksum, output, exit_code}; the answer is not decoded. */
export function updateJob(baseUrl: string, job: { id: number; token: string }, update: { state: 'running' | 'success' | 'failed'; failureReason?: string; log?: Buffer; exitCode?: number }) {
  const log = update.log ?? Buffer.alloc(0);
  const checksum = `crc32:${crc32(log).toString(16).padStart(8, '0')}`;
  const body = {
    info: RUNNER_INFO,
    token: job.token,
    state: update.state,
    ...(update.failureReason ? { failure_reason: update.failureReason } : {}),
    checksum,
    output: { checksum, bytesize: log.length },
    ...(update.exitCode ? { exit_code: update.exitCode } : {}),
  };
  return json(baseUrl, 'PUT', `jobs/${job.id}`, body, { accept: false });
}

/** PatchTrace: the raw bytes at `start`, `Content-Range: start-end` (inclusive, no unit), `?debug_trace=false`. */
export function patchTrace(baseUrl: string, job: { id: number; token: string }, start: number, content: Buffer) {
  return send(baseUrl, 'PATCH', `jobs/${job.id}/trace?debug_trace=false`, {
    'Content-Range': `${start}-${start + content.length - 1}`,
    'Job-Token': job.token,
    'User-Agent': USER_AGENT,
    'Content-Type': 'text/plain',
    'Accept-Encoding': 'gzip',
  }, content);
}

/**
 * UploadRawArtifacts: a multipart body written through a pipe while it is sent (so chunked),
 * one `file` part (mime/multipart's CreateFormFile headers), the options in the query string
 * in url.Values order (sorted keys). `extraParts` adds parts GitLab Workhorse would send (its
 * `metadata`).
 */
export function uploadArtifacts(
  baseUrl: string,
  job: { id: number; token: string },
  file: { baseName: string; data: Buffer | (() => AsyncIterable<Buffer>) },
  options: { format?: string; type?: string; expireIn?: string },
  extraParts: { field: string; filename: string; data: Buffer }[] = [],
) {
  const boundary = randomBytes(30).toString('hex');
  const query = new URLSearchParams();
  if (options.format) query.set('artifact_format', options.format);
  if (options.type) query.set('artifact_type', options.type);
  if (options.expireIn) query.set('expire_in', options.expireIn);
  query.sort();
  const part = (field: string, filename: string, first: boolean) =>
    Buffer.from(`${first ? '' : '\r\n'}--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  async function* body(): AsyncIterable<Buffer> {
    yield part('file', file.baseName, true);
    if (Buffer.isBuffer(file.data)) yield file.data;
    else yield* file.data();
    for (const extra of extraParts) {
      yield part(extra.field, extra.filename, false);
      yield extra.data;
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return send(baseUrl, 'POST', `jobs/${job.id}/artifacts?${query.toString().replace(/%20/g, '+')}`, {
    'Job-Token': job.token,
    'User-Agent': USER_AGENT,
    'Content-Type': `multipart/form-data; boundary=${boundary}`,
    'Accept-Encoding': 'gzip',
  }, Readable.from(body()));
}

/** DownloadArtifacts: GET with the dependency's token; `?direct_download=…` only when the runner sets it (else an empty query). */
export function downloadArtifacts(baseUrl: string, dependency: { id: number; token: string }, directDownload?: boolean) {
  const query = directDownload === undefined ? '' : `direct_download=${directDownload}`;
  return send(baseUrl, 'GET', `jobs/${dependency.id}/artifacts?${query}`, { 'Job-Token': dependency.token, 'User-Agent': USER_AGENT, 'Accept-Encoding': 'gzip' });
}

/** IEEE CRC-32, as gitlab-runner's trace checksum (`crc32:%08x`). */
export function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
