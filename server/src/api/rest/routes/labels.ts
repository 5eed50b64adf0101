import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LabelInput } from '../../../domains/labels/labels.service.js';
import type { Label } from '../../../domains/labels/labels.repository.js';
import { signedIn, type RestContext } from '../context.js';
import { labelEntity } from '../entities/labels.js';
import { paginationHeaders, parsePage, requestUrl, type Page } from '../pagination.js';
import { Bool, Input, Int, NamespacedRef, Nullable, Optional, Pagination, Ref, Removable, routes, Str, Text } from '../input/route-kit.js';

/** `priority`: a non-negative integer; null or '' removes it (GitLab). */
const LabelFields = { color: Optional(Str()), description: Optional(Nullable(Str())), priority: Optional(Removable(Int())) };
const LabelPath = { id: NamespacedRef(), label_id: Ref({ description: 'ID or title' }) };
const LabelList = Input({ id: NamespacedRef(), ...Pagination, include_ancestor_groups: Optional(Bool()), search: Optional(Text()), with_counts: Optional(Bool()) });
const LabelRead = Input({ ...LabelPath, include_ancestor_groups: Optional(Bool()) });
const LabelCreate = Input({ id: NamespacedRef(), name: Str(), ...LabelFields });
const LabelUpdate = Input({ ...LabelPath, new_name: Optional(Str()), ...LabelFields });

function labelInput(params: { name?: string; new_name?: string; color?: string; description?: string | null; priority?: number | null }): LabelInput {
  return { name: params.name ?? params.new_name, color: params.color, description: params.description, priority: params.priority };
}

/**
 * Project and group labels: doc/api/labels.md and group_labels.md. A label is named in the
 * path by id or by title (URL-encoded).
 */
export function labelRoutes(app: FastifyInstance, ctx: RestContext<'labels'>): void {
  const { labels } = ctx.services;
  const r = routes(app);
  const project = '/projects/:id/labels';
  const group = '/groups/:id/labels';

  async function page(request: FastifyRequest, reply: FastifyReply, window: Page, all: Label[], render: (list: Label[]) => Promise<unknown[]>) {
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), window, all.length));
    return render(all.slice(window.offset, window.offset + window.limit));
  }

  r.get(project, LabelList, async (params, request, reply) => {
    const result = await labels.listForProject(request.actor, params.id, { includeAncestorGroups: params.include_ancestor_groups ?? true, search: params.search });
    return page(request, reply, parsePage(params), result.labels, async (list) => {
      const counts = params.with_counts === true ? await labels.counts(list.map((label) => label.id), { projectId: result.project.id }) : undefined;
      const subscribed = await labels.subscribedIds(request.actor, list, result.project.id);
      return list.map((label) => labelEntity(label, { project: true, counts: counts?.get(label.id), subscribed }));
    });
  });

  r.get(`${project}/:label_id`, LabelRead, async (params, request) => {
    const { project: owner, label } = await labels.getForProject(request.actor, params.id, params.label_id, { includeAncestorGroups: params.include_ancestor_groups ?? true });
    return labelEntity(label, { project: true, subscribed: await labels.subscribedIds(request.actor, [label], owner.id) });
  });

  r.post(project, LabelCreate, async (params, request, reply) => {
    const { label } = await labels.createForProject(signedIn(request), params.id, labelInput(params));
    return reply.status(201).send(labelEntity(label, { project: true }));
  });

  r.put(`${project}/:label_id`, LabelUpdate, async (params, request) => {
    const { project: owner, label } = await labels.updateForProject(signedIn(request), params.id, params.label_id, labelInput(params));
    return labelEntity(label, { project: true, subscribed: await labels.subscribedIds(request.actor, [label], owner.id) });
  });

  r.delete(`${project}/:label_id`, Input(LabelPath), async (params, request, reply) => {
    await labels.deleteForProject(signedIn(request), params.id, params.label_id);
    return reply.status(204).send();
  });

  r.put(`${project}/:label_id/promote`, Input(LabelPath), async (params, request) => {
    const { label } = await labels.promote(signedIn(request), params.id, params.label_id);
    return labelEntity(label);
  });

  r.get(group, LabelList, async (params, request, reply) => {
    const result = await labels.listForGroup(request.actor, params.id, { includeAncestorGroups: params.include_ancestor_groups ?? true, search: params.search });
    return page(request, reply, parsePage(params), result.labels, async (list) => {
      const counts = params.with_counts === true ? await labels.counts(list.map((label) => label.id), { groupId: result.group.id }) : undefined;
      const subscribed = await labels.subscribedIds(request.actor, list, null);
      return list.map((label) => labelEntity(label, { counts: counts?.get(label.id), subscribed }));
    });
  });

  r.get(`${group}/:label_id`, LabelRead, async (params, request) => {
    const { label } = await labels.getForGroup(request.actor, params.id, params.label_id, { includeAncestorGroups: params.include_ancestor_groups ?? true });
    return labelEntity(label, { subscribed: await labels.subscribedIds(request.actor, [label], null) });
  });

  r.post(group, LabelCreate, async (params, request, reply) => {
    const { label } = await labels.createForGroup(signedIn(request), params.id, labelInput(params));
    return reply.status(201).send(labelEntity(label));
  });

  r.put(`${group}/:label_id`, LabelUpdate, async (params, request) => {
    const { label } = await labels.updateForGroup(signedIn(request), params.id, params.label_id, labelInput(params));
    return labelEntity(label, { subscribed: await labels.subscribedIds(request.actor, [label], null) });
  });

  r.delete(`${group}/:label_id`, Input(LabelPath), async (params, request, reply) => {
    await labels.deleteForGroup(signedIn(request), params.id, params.label_id);
    return reply.status(204).send();
  });

  /**
   * Label subscriptions (doc/api/labels.md#subscribe-to-a-label): 201 with the label when the
   * state changed, 304 Not Modified with no body when it already was so; sign-in required.
   */
  for (const [action, subscribe] of [['subscribe', true], ['unsubscribe', false]] as const) {
    r.post(`${project}/:label_id/${action}`, Input(LabelPath), async (params, request, reply) => {
      const { project: owner, label, changed } = await labels.setProjectSubscription(signedIn(request), params.id, params.label_id, subscribe);
      if (!changed) return reply.status(304).send();
      return reply.status(201).send(labelEntity(label, { project: true, subscribed: await labels.subscribedIds(request.actor, [label], owner.id) }));
    });
    r.post(`${group}/:label_id/${action}`, Input(LabelPath), async (params, request, reply) => {
      const { label, changed } = await labels.setGroupSubscription(signedIn(request), params.id, params.label_id, subscribe);
      if (!changed) return reply.status(304).send();
      return reply.status(201).send(labelEntity(label, { subscribed: await labels.subscribedIds(request.actor, [label], null) }));
    });
  }
}
