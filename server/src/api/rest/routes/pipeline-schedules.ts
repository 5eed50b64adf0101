import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../context.js';
import { pipelineScheduleDetails, pipelineScheduleEntity, scheduleVariableEntity } from '../entities/pipeline-schedules.js';
import { pipelineBasic } from '../entities/pipelines.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { BlankableStr, Bool, Enum, Input, NamespacedRef, Optional, Pagination, PathId, routes, Str } from '../input/route-kit.js';

const SchedulePath = { id: NamespacedRef(), pipeline_schedule_id: PathId('Pipeline Schedule') };
const VariablePath = { ...SchedulePath, key: Str() };
const VariableType = Optional(Enum(['env_var', 'file'] as const));

const ScheduleFields = {
  description: Str(),
  ref: Str({ description: 'a branch or tag name' }),
  cron: Str({ description: 'a cron expression (five fields)' }),
  cron_timezone: Optional(Str({ description: 'a time zone name, such as Europe/Berlin' })),
  active: Optional(Bool()),
};
const CreateInput = Input({ id: NamespacedRef(), ...ScheduleFields });
const UpdateInput = Input({
  ...SchedulePath,
  description: Optional(ScheduleFields.description),
  ref: Optional(ScheduleFields.ref),
  cron: Optional(ScheduleFields.cron),
  cron_timezone: ScheduleFields.cron_timezone,
  active: ScheduleFields.active,
});

/**
 * Pipeline schedules (doc/api/pipeline_schedules.md): list with `scope`, show, create, edit,
 * delete, take ownership, play (201, runs now), the pipelines a schedule created, and its variables.
 */
export function pipelineScheduleRoutes(app: FastifyInstance, ctx: RestContext<'pipelineSchedules'>): void {
  const { pipelineSchedules } = ctx.services;
  const base = '/projects/:id/pipeline_schedules';
  const one = `${base}/:pipeline_schedule_id`;

  const r = routes(app);

  r.get(base, Input({ id: NamespacedRef(), ...Pagination, scope: Optional(Enum(['active', 'inactive'] as const)) }), async (params, request, reply) => {
    const page = parsePage(params);
    const scope = params.scope;
    const result = await pipelineSchedules.list(request.actor, params.id, { active: scope === undefined ? undefined : scope === 'active', limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.schedules.map(({ schedule, owner }) => pipelineScheduleEntity(schedule, owner, ctx.urls));
  });

  r.get(one, Input(SchedulePath), async ({ id, pipeline_schedule_id }, request) =>
    pipelineScheduleDetails(await pipelineSchedules.get(request.actor, id, pipeline_schedule_id), ctx.urls),
  );

  r.post(base, CreateInput, async ({ id, ...schedule }, request, reply) => {
    const details = await pipelineSchedules.create(signedIn(request), id, schedule);
    return reply.status(201).send(pipelineScheduleDetails(details, ctx.urls));
  });

  r.put(one, UpdateInput, async ({ id, pipeline_schedule_id, ...schedule }, request) =>
    pipelineScheduleDetails(await pipelineSchedules.update(signedIn(request), id, pipeline_schedule_id, schedule), ctx.urls),
  );

  r.delete(one, Input(SchedulePath), async ({ id, pipeline_schedule_id }, request, reply) => {
    await pipelineSchedules.remove(signedIn(request), id, pipeline_schedule_id);
    return reply.status(204).send();
  });

  r.post(`${one}/take_ownership`, Input(SchedulePath), async ({ id, pipeline_schedule_id }, request, reply) => {
    const details = await pipelineSchedules.takeOwnership(signedIn(request), id, pipeline_schedule_id);
    return reply.status(201).send(pipelineScheduleDetails(details, ctx.urls));
  });

  r.post(`${one}/play`, Input(SchedulePath), async ({ id, pipeline_schedule_id }, request, reply) => {
    await pipelineSchedules.play(signedIn(request), id, pipeline_schedule_id);
    return reply.status(201).send({ message: '201 Created' });
  });

  r.get(`${one}/pipelines`, Input({ ...SchedulePath, ...Pagination, sort: Optional(Enum(['asc', 'desc'] as const, { default: 'asc' })) }), async (params, request, reply) => {
    const page = parsePage(params);
    const sort = params.sort ?? 'asc';
    const result = await pipelineSchedules.pipelines(request.actor, params.id, params.pipeline_schedule_id, { limit: page.limit, offset: page.offset, sort });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.pipelines.map((pipeline) => pipelineBasic(pipeline, result.project, ctx.urls));
  });

  // A variable's value may be empty (GitLab's `requires :value` without allow_blank: false).
  r.post(`${one}/variables`, Input({ ...SchedulePath, key: Str(), value: BlankableStr(), variable_type: VariableType }), async ({ id, pipeline_schedule_id, key, value, variable_type }, request, reply) => {
    const variable = await pipelineSchedules.createVariable(signedIn(request), id, pipeline_schedule_id, { key, value, variable_type: variable_type ?? 'env_var' });
    return reply.status(201).send(scheduleVariableEntity(variable));
  });

  r.put(`${one}/variables/:key`, Input({ ...VariablePath, value: Optional(Str()), variable_type: VariableType }), async ({ id, pipeline_schedule_id, key, value, variable_type }, request) =>
    scheduleVariableEntity(await pipelineSchedules.updateVariable(signedIn(request), id, pipeline_schedule_id, key, { value, variable_type })),
  );

  r.delete(`${one}/variables/:key`, Input(VariablePath), async ({ id, pipeline_schedule_id, key }, request) =>
    scheduleVariableEntity(await pipelineSchedules.deleteVariable(signedIn(request), id, pipeline_schedule_id, key)),
  );
}
