import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseMilestoneDate } from '../../../domains/milestones/milestone-rules.js';
import type { MilestoneInput } from '../../../domains/milestones/milestones.service.js';
import { NotFoundError } from '../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { milestoneEntity } from '../entities/labels.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { oneOf, optionalBool, optionalString, type Params } from '../params.js';
import { optionalIdList } from './merge-requests/input.js';

function milestoneInput(params: Params): MilestoneInput {
  return {
    title: optionalString(params, 'title'),
    description: params.description === null ? null : optionalString(params, 'description'),
    startDate: parseMilestoneDate('start_date', params.start_date === null ? null : optionalString(params, 'start_date')),
    dueDate: parseMilestoneDate('due_date', params.due_date === null ? null : optionalString(params, 'due_date')),
    stateEvent: params.state_event === undefined ? undefined : oneOf(params, 'state_event', ['close', 'activate'] as const, 'close'),
  };
}

/** The :milestone_id path segment; anything but a positive integer names nothing. */
function milestoneId(request: FastifyRequest): number {
  const raw = pathParam(request, 'milestone_id');
  if (!/^\d{1,18}$/.test(raw)) throw new NotFoundError('Milestone');
  return Number(raw);
}

/** Project and group milestones: doc/api/milestones.md and group_milestones.md. */
export function milestoneRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { milestones } = ctx.services;
  for (const kind of ['project', 'group'] as const) {
    const base = `/${kind}s/:id/milestones`;

    app.get(base, async (request, reply) => {
      const params = input(request);
      const page = parsePage(params);
      const state = oneOf(params, 'state', ['active', 'closed', 'all'] as const, 'all');
      const iids = optionalIdList(params, 'iids');
      const { milestones: list, total } = await milestones.list(
        request.actor,
        kind,
        pathParam(request, 'id'),
        {
          iids: iids && iids.length > 0 ? iids : undefined,
          state: state === 'all' ? undefined : state,
          title: optionalString(params, 'title') || undefined,
          search: optionalString(params, 'search') || undefined,
          includeAncestors: optionalBool(params, 'include_ancestors') ?? optionalBool(params, 'include_parent_milestones'),
        },
        page,
      );
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
      return list.map((milestone) => milestoneEntity(milestone, ctx.urls));
    });

    app.get(`${base}/:milestone_id`, async (request) => milestoneEntity(await milestones.get(request.actor, kind, pathParam(request, 'id'), milestoneId(request)), ctx.urls));

    app.post(base, async (request, reply) => {
      const milestone = await milestones.create(signedIn(request), kind, pathParam(request, 'id'), milestoneInput(input(request)));
      return reply.status(201).send(milestoneEntity(milestone, ctx.urls));
    });

    app.put(`${base}/:milestone_id`, async (request) => {
      const milestone = await milestones.update(signedIn(request), kind, pathParam(request, 'id'), milestoneId(request), milestoneInput(input(request)));
      return milestoneEntity(milestone, ctx.urls);
    });

    app.delete(`${base}/:milestone_id`, async (request, reply) => {
      await milestones.remove(signedIn(request), kind, pathParam(request, 'id'), milestoneId(request));
      return reply.status(204).send();
    });
  }

  app.post('/projects/:id/milestones/:milestone_id/promote', async (request) => {
    const milestone = await milestones.promote(signedIn(request), pathParam(request, 'id'), milestoneId(request));
    return milestoneEntity(milestone, ctx.urls);
  });
}
