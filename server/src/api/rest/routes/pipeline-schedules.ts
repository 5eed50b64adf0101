import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ScheduleInput } from '../../../domains/pipeline-schedules/pipeline-schedules.service.js';
import { NotFoundError, ValidationError } from '../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { pipelineScheduleDetails, pipelineScheduleEntity, scheduleVariableEntity } from '../entities/pipeline-schedules.js';
import { pipelineBasic } from '../entities/pipelines.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { oneOf, optionalBool, optionalString, requiredString, type Params } from '../params.js';

function scheduleId(request: FastifyRequest): number {
  const raw = pathParam(request, 'pipeline_schedule_id');
  if (!/^\d{1,18}$/.test(raw)) throw new NotFoundError('Pipeline Schedule');
  return Number(raw);
}

function scheduleInput(params: Params): ScheduleInput {
  return {
    description: optionalString(params, 'description'),
    ref: optionalString(params, 'ref'),
    cron: optionalString(params, 'cron'),
    cron_timezone: optionalString(params, 'cron_timezone'),
    active: optionalBool(params, 'active'),
  };
}

function variableType(params: Params): 'env_var' | 'file' | undefined {
  const value = optionalString(params, 'variable_type');
  if (value === undefined) return undefined;
  if (value !== 'env_var' && value !== 'file') throw new ValidationError('400 (Bad request) "variable_type" does not have a valid value');
  return value;
}

/**
 * Pipeline schedules (doc/api/pipeline_schedules.md): list with `scope`, show, create, edit,
 * delete, take ownership, play (201, runs now), the pipelines a schedule created, and its variables.
 */
export function pipelineScheduleRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { pipelineSchedules } = ctx.services;
  const base = '/projects/:id/pipeline_schedules';
  const one = `${base}/:pipeline_schedule_id`;

  app.get(base, async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const scope = optionalString(params, 'scope') ? oneOf(params, 'scope', ['active', 'inactive'] as const, 'active') : undefined;
    const result = await pipelineSchedules.list(request.actor, pathParam(request, 'id'), { active: scope === undefined ? undefined : scope === 'active', limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.schedules.map(({ schedule, owner }) => pipelineScheduleEntity(schedule, owner, ctx.urls));
  });

  app.get(one, async (request) => pipelineScheduleDetails(await pipelineSchedules.get(request.actor, pathParam(request, 'id'), scheduleId(request)), ctx.urls));

  app.post(base, async (request, reply) => {
    const params = input(request);
    for (const key of ['description', 'ref', 'cron']) requiredString(params, key);
    const details = await pipelineSchedules.create(signedIn(request), pathParam(request, 'id'), scheduleInput(params));
    return reply.status(201).send(pipelineScheduleDetails(details, ctx.urls));
  });

  app.put(one, async (request) => pipelineScheduleDetails(await pipelineSchedules.update(signedIn(request), pathParam(request, 'id'), scheduleId(request), scheduleInput(input(request))), ctx.urls));

  app.delete(one, async (request, reply) => {
    await pipelineSchedules.remove(signedIn(request), pathParam(request, 'id'), scheduleId(request));
    return reply.status(204).send();
  });

  app.post(`${one}/take_ownership`, async (request, reply) => {
    const details = await pipelineSchedules.takeOwnership(signedIn(request), pathParam(request, 'id'), scheduleId(request));
    return reply.status(201).send(pipelineScheduleDetails(details, ctx.urls));
  });

  app.post(`${one}/play`, async (request, reply) => {
    await pipelineSchedules.play(signedIn(request), pathParam(request, 'id'), scheduleId(request));
    return reply.status(201).send({ message: '201 Created' });
  });

  app.get(`${one}/pipelines`, async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const sort = oneOf(params, 'sort', ['asc', 'desc'] as const, 'asc');
    const result = await pipelineSchedules.pipelines(request.actor, pathParam(request, 'id'), scheduleId(request), { limit: page.limit, offset: page.offset, sort });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.pipelines.map((pipeline) => pipelineBasic(pipeline, result.project, ctx.urls));
  });

  app.post(`${one}/variables`, async (request, reply) => {
    const params = input(request);
    const key = requiredString(params, 'key');
    const value = optionalString(params, 'value');
    if (value === undefined) throw ValidationError.missing('value');
    const variable = await pipelineSchedules.createVariable(signedIn(request), pathParam(request, 'id'), scheduleId(request), { key, value, variable_type: variableType(params) ?? 'env_var' });
    return reply.status(201).send(scheduleVariableEntity(variable));
  });

  app.put(`${one}/variables/:key`, async (request) => {
    const params = input(request);
    return scheduleVariableEntity(
      await pipelineSchedules.updateVariable(signedIn(request), pathParam(request, 'id'), scheduleId(request), pathParam(request, 'key'), { value: optionalString(params, 'value'), variable_type: variableType(params) }),
    );
  });

  app.delete(`${one}/variables/:key`, async (request) =>
    scheduleVariableEntity(await pipelineSchedules.deleteVariable(signedIn(request), pathParam(request, 'id'), scheduleId(request), pathParam(request, 'key'))),
  );
}
