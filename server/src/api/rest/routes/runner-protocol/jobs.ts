import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../platform/errors.js';
import { runnerInfo } from '../runners.js';
import { JobNotRunningError, STATE_UPDATE_BACKOFF_SECONDS, TRACE_UPDATE_INTERVAL_SECONDS } from '../../../../domains/runner-protocol/runner-protocol.service.js';
import type { RestContext } from '../../context.js';
import { Any, Input, NamespacedRef, Optional, Str, routes } from '../../input/route-kit.js';

/** The runner token: the `token` parameter, or gitlab-runner's RUNNER-TOKEN header. */
function runnerToken(request: FastifyRequest, token: string | undefined): string | undefined {
  if (token) return token;
  const header = request.headers['runner-token'];
  return typeof header === 'string' && header ? header : undefined;
}

/** The parameters that may carry a job's token (GitLab's `token` and `job_token`); the JOB-TOKEN header also does. */
export const JobTokenInput = {
  token: Optional(Str({ description: 'the job token' })),
  job_token: Optional(Str({ description: 'the job token' })),
};

/** The job token of a job's own call: the JOB-TOKEN header, or the `token` (PUT) or `job_token` parameter. */
export function jobToken(request: FastifyRequest, params: { token?: string; job_token?: string }): string | undefined {
  const header = request.headers['job-token'];
  if (typeof header === 'string' && header) return header;
  return params.token ?? params.job_token;
}


/** A job id in the path: anything but a positive integer is GitLab's 400 for the parameter. */
export const JobIdPath = () => Str({ description: 'a job ID' });

export function jobIdParam(value: string, name = 'id'): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new ValidationError(`400 (Bad request) "${name}" is invalid`);
  return id;
}

/** The largest log chunk taken in one PATCH (gitlab-runner sends at most its 4 MiB `output_limit` default at once). */
const MAX_LOG_CHUNK_BYTES = 5 * 1024 * 1024;

/** A client that hangs up ends its long poll at once. */
function abortOnClose(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => controller.abort());
  request.raw.on('aborted', () => controller.abort());
  return controller.signal;
}

/**
 * The calls gitlab-runner makes for jobs (lib/api/ci/runner.rb): ask for one (long polling) and
 * report its state. The runner authenticates the first with its runner token, the second with
 * the job token it received.
 */
/** The start of an open-ended byte range (`bytes=<n>-`); null for no header or any other form (the whole log is sent). */
export function openRangeStart(header: string | undefined): number | null {
  const match = /^bytes=(\d{1,15})-$/.exec((header ?? '').trim());
  return match ? Number(match[1]) : null;
}

export function runnerJobRoutes(app: FastifyInstance, ctx: RestContext<'pipelines' | 'runnerProtocol'>): void {
  const { runnerProtocol } = ctx.services;
  const r = routes(app);

  const RequestInput = Input({
    token: Optional(Str({ description: 'the runner token' })),
    info: Optional(Any({ description: "the runner's version, revision, platform, architecture and executor" })),
    system_id: Optional(Str({ description: "the runner manager's system identifier" })),
    last_update: Optional(Str({ description: 'the X-GitLab-Last-Update value the runner last received' })),
  });
  r.post('/jobs/request', RequestInput, async (params, request, reply) => {
    const result = await runnerProtocol.requestJob(
      runnerToken(request, params.token),
      { info: runnerInfo(params.info), systemId: params.system_id, ipAddress: request.ip, lastUpdate: params.last_update },
      abortOnClose(request, reply),
    );
    reply.header('X-GitLab-Last-Update', result.lastUpdate);
    if (!result.job) return reply.status(204).send();
    return reply.status(201).type('application/json').send(result.job);
  });

  // The runner's log chunks arrive as raw bytes (Content-Type text/plain): read them as a Buffer,
  // in a child context so that no other route's parsers change.
  app.register(async (logs) => {
    logs.removeAllContentTypeParsers();
    logs.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    routes(logs).patch('/jobs/:id/trace', Input({ id: JobIdPath(), ...JobTokenInput }), async (params, request, reply) => {
      const id = jobIdParam(params.id);
      const data = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const range = request.headers['content-range'];
      try {
        const result = await runnerProtocol.appendLog(id, jobToken(request, params), typeof range === 'string' ? range : undefined, data);
        reply.header('Job-Status', result.jobStatus);
        reply.header('Range', `0-${result.size}`);
        reply.header('X-GitLab-Trace-Update-Interval', String(TRACE_UPDATE_INTERVAL_SECONDS));
        if (result.status === 416) return reply.status(416).send({ message: '416 Range Not Satisfiable' });
        return reply.status(202).send();
      } catch (error) {
        if (error instanceof JobNotRunningError) reply.header('Job-Status', error.jobStatus);
        throw error;
      }
    }, { bodyLimit: MAX_LOG_CHUNK_BYTES });
  });

  // The job log as text, for whoever may read the project's jobs (GitLab's read_build; public_builds).
  r.get('/projects/:id/jobs/:job_id/trace', Input({ id: NamespacedRef(), job_id: JobIdPath() }), async (params, request, reply) => {
    const { job } = await ctx.services.pipelines.readableJob(request.actor, params.id, jobIdParam(params.job_id, 'job_id'));
    reply.header('Accept-Ranges', 'bytes');
    // A live page reads only what was appended: `Range: bytes=<offset>-` answers 206 with the
    // rest, or 416 with `Content-Range: bytes */<size>` when there is nothing after the offset.
    const offset = openRangeStart(request.headers.range);
    if (offset !== null) {
      const part = await runnerProtocol.readLogFrom(job, offset);
      reply.header('Job-Status', job.status);
      if (!part) {
        const size = await runnerProtocol.logSize(job);
        return reply.status(416).header('Content-Range', `bytes */${size}`).type('text/plain').send('');
      }
      return reply
        .status(206)
        .header('Content-Range', `bytes ${offset}-${part.size - 1}/${part.size}`)
        .type('text/plain')
        .send(part.data);
    }
    const log = await runnerProtocol.readLog(job);
    return reply.status(200).type('text/plain').send(log);
  });

  const UpdateInput = Input({
    id: JobIdPath(),
    ...JobTokenInput,
    state: Optional(Str({ description: 'running, success or failed' })),
    failure_reason: Optional(Str()),
    exit_code: Optional(Any({ description: "the script's exit code" })),
  });
  r.put('/jobs/:id', UpdateInput, async (params, request, reply) => {
    const id = jobIdParam(params.id);
    const exit = params.exit_code;
    try {
      const result = await runnerProtocol.updateJob(id, jobToken(request, params), {
        state: params.state,
        failureReason: params.failure_reason,
        exitCode: exit === undefined || exit === null || exit === '' ? undefined : Number.isSafeInteger(Number(exit)) ? Number(exit) : undefined,
      });
      reply.header('Job-Status', result.jobStatus);
      reply.header('X-GitLab-Trace-Update-Interval', String(STATE_UPDATE_BACKOFF_SECONDS));
      // GitLab's body is the status code as text.
      return reply.status(result.status).type('text/plain').send(String(result.status));
    } catch (error) {
      if (error instanceof JobNotRunningError) reply.header('Job-Status', error.jobStatus);
      throw error;
    }
  });
}
