import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../platform/errors.js';
import type { RunnerInfo } from '../../../../domains/runners/runner.js';
import { JobNotRunningError, STATE_UPDATE_BACKOFF_SECONDS, TRACE_UPDATE_INTERVAL_SECONDS } from '../../../../domains/runner-protocol/runner-protocol.service.js';
import { input, pathParam, type RestContext } from '../../context.js';
import { optionalString, type Params } from '../../params.js';

/** The runner token: the `token` parameter, or gitlab-runner's RUNNER-TOKEN header. */
function runnerToken(request: FastifyRequest): string | undefined {
  const fromParams = optionalString(input(request), 'token');
  if (fromParams) return fromParams;
  const header = request.headers['runner-token'];
  return typeof header === 'string' && header ? header : undefined;
}

/** The job token of a job's own call: the `token` parameter (PUT), or the JOB-TOKEN header. */
export function jobToken(request: FastifyRequest): string | undefined {
  const header = request.headers['job-token'];
  if (typeof header === 'string' && header) return header;
  const params = input(request);
  return optionalString(params, 'token') ?? optionalString(params, 'job_token');
}

function runnerInfo(params: Params): RunnerInfo | undefined {
  const info = params.info;
  if (!info || typeof info !== 'object' || Array.isArray(info)) return undefined;
  const text = (key: string) => {
    const value = (info as Record<string, unknown>)[key];
    return typeof value === 'string' && value ? value.slice(0, 255) : undefined;
  };
  return { version: text('version'), revision: text('revision'), platform: text('platform'), architecture: text('architecture') };
}

export function jobIdParam(request: FastifyRequest, name = 'id'): number {
  const id = Number(pathParam(request, name));
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
export function runnerJobRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { runnerProtocol } = ctx.services;

  app.post('/jobs/request', async (request, reply) => {
    const params = input(request);
    const result = await runnerProtocol.requestJob(runnerToken(request), { info: runnerInfo(params), ipAddress: request.ip }, abortOnClose(request, reply));
    reply.header('X-GitLab-Last-Update', result.lastUpdate);
    if (!result.job) return reply.status(204).send();
    return reply.status(201).type('application/json').send(result.job);
  });

  // The runner's log chunks arrive as raw bytes (Content-Type text/plain): read them as a Buffer,
  // in a child context so that no other route's parsers change.
  app.register(async (logs) => {
    logs.removeAllContentTypeParsers();
    logs.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    logs.patch('/jobs/:id/trace', { bodyLimit: MAX_LOG_CHUNK_BYTES }, async (request, reply) => {
      const id = jobIdParam(request);
      const data = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const range = request.headers['content-range'];
      try {
        const result = await runnerProtocol.appendLog(id, jobToken(request), typeof range === 'string' ? range : undefined, data);
        reply.header('Job-Status', result.jobStatus);
        reply.header('Range', `0-${result.size}`);
        reply.header('X-GitLab-Trace-Update-Interval', String(TRACE_UPDATE_INTERVAL_SECONDS));
        if (result.status === 416) return reply.status(416).send({ message: '416 Range Not Satisfiable' });
        return reply.status(202).send();
      } catch (error) {
        if (error instanceof JobNotRunningError) reply.header('Job-Status', error.jobStatus);
        throw error;
      }
    });
  });

  // The job log as text, for whoever may read the project's jobs (GitLab's read_build; public_builds).
  app.get('/projects/:id/jobs/:job_id/trace', async (request, reply) => {
    const { job } = await ctx.services.pipelines.job(request.actor, pathParam(request, 'id'), jobIdParam(request, 'job_id'));
    const log = await runnerProtocol.readLog(job);
    return reply.status(200).type('text/plain').send(log);
  });

  app.put('/jobs/:id', async (request, reply) => {
    const id = jobIdParam(request);
    const params = input(request);
    const exit = params.exit_code;
    try {
      const result = await runnerProtocol.updateJob(id, jobToken(request), {
        state: optionalString(params, 'state'),
        failureReason: optionalString(params, 'failure_reason'),
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
