import type { FastifyInstance } from 'fastify';
import { parseMilestoneDate } from '../../../domains/milestones/milestone-rules.js';
import type { MilestoneInput } from '../../../domains/milestones/milestones.service.js';
import { signedIn, type RestContext } from '../context.js';
import { milestoneEntity } from '../entities/labels.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { Bool, Enum, Id, Input, List, NamespacedRef, Nullable, Optional, Pagination, PathId, routes, Str, Text } from '../input/route-kit.js';

/** The dates are checked by the milestone rules (YYYY-MM-DD); null removes one. */
const MilestoneFields = {
  title: Optional(Str()),
  description: Optional(Nullable(Str())),
  start_date: Optional(Nullable(Str({ description: 'YYYY-MM-DD' }))),
  due_date: Optional(Nullable(Str({ description: 'YYYY-MM-DD' }))),
  state_event: Optional(Enum(['close', 'activate'] as const)),
};
type MilestoneParams = { title?: string; description?: string | null; start_date?: string | null; due_date?: string | null; state_event?: 'close' | 'activate' };

function milestoneInput(params: MilestoneParams): MilestoneInput {
  return {
    title: params.title,
    description: params.description,
    startDate: parseMilestoneDate('start_date', params.start_date),
    dueDate: parseMilestoneDate('due_date', params.due_date),
    stateEvent: params.state_event,
  };
}

/** The :milestone_id path segment; anything but a non-negative integer names nothing. */
const MilestonePath = { id: NamespacedRef(), milestone_id: PathId('Milestone') };

/** Project and group milestones: doc/api/milestones.md and group_milestones.md. */
export function milestoneRoutes(app: FastifyInstance, ctx: RestContext<'milestones'>): void {
  const { milestones } = ctx.services;
  const r = routes(app);
  for (const kind of ['project', 'group'] as const) {
    const base = `/${kind}s/:id/milestones`;

    const MilestoneList = Input({
      id: NamespacedRef(),
      ...Pagination,
      state: Optional(Enum(['active', 'closed', 'all'] as const)),
      iids: Optional(List(Id())),
      title: Optional(Text()),
      search: Optional(Text()),
      include_ancestors: Optional(Bool()),
      include_parent_milestones: Optional(Bool()),
    });
    r.get(base, MilestoneList, async (params, request, reply) => {
      const page = parsePage(params);
      const { milestones: list, total } = await milestones.list(
        request.actor,
        kind,
        params.id,
        {
          iids: params.iids && params.iids.length > 0 ? params.iids : undefined,
          state: params.state === 'all' ? undefined : params.state,
          title: params.title,
          search: params.search,
          includeAncestors: params.include_ancestors ?? params.include_parent_milestones,
        },
        page,
      );
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
      return list.map((milestone) => milestoneEntity(milestone, ctx.urls));
    });

    r.get(`${base}/:milestone_id`, Input(MilestonePath), async (params, request) => milestoneEntity(await milestones.get(request.actor, kind, params.id, params.milestone_id), ctx.urls));

    r.post(base, Input({ id: NamespacedRef(), ...MilestoneFields, title: Str() }), async (params, request, reply) => {
      const milestone = await milestones.create(signedIn(request), kind, params.id, milestoneInput(params));
      return reply.status(201).send(milestoneEntity(milestone, ctx.urls));
    });

    r.put(`${base}/:milestone_id`, Input({ ...MilestonePath, ...MilestoneFields }), async (params, request) => {
      const milestone = await milestones.update(signedIn(request), kind, params.id, params.milestone_id, milestoneInput(params));
      return milestoneEntity(milestone, ctx.urls);
    });

    r.delete(`${base}/:milestone_id`, Input(MilestonePath), async (params, request, reply) => {
      await milestones.remove(signedIn(request), kind, params.id, params.milestone_id);
      return reply.status(204).send();
    });
  }

  r.post('/projects/:id/milestones/:milestone_id/promote', Input(MilestonePath), async (params, request) => {
    const milestone = await milestones.promote(signedIn(request), params.id, params.milestone_id);
    return milestoneEntity(milestone, ctx.urls);
  });
}
