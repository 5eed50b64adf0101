import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LabelInput } from '../../../domains/labels/labels.service.js';
import type { Label } from '../../../domains/labels/labels.repository.js';
import { ValidationError } from '../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { labelEntity } from '../entities/labels.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { optionalBool, optionalString, type Params } from '../params.js';

/** `priority`: a non-negative integer; null or '' removes it (GitLab). */
function priorityParam(params: Params): number | null | undefined {
  const value = params.priority;
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number)) throw new ValidationError('400 (Bad request) "priority" is invalid');
  return number;
}

function labelInput(params: Params, nameKey: 'name' | 'new_name'): LabelInput {
  return {
    name: optionalString(params, nameKey),
    color: optionalString(params, 'color'),
    description: params.description === null ? null : optionalString(params, 'description'),
    priority: priorityParam(params),
  };
}

/**
 * Project and group labels: doc/api/labels.md and group_labels.md. A label is named in the
 * path by id or by title (URL-encoded).
 */
export function labelRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { labels } = ctx.services;
  const project = '/projects/:id/labels';
  const group = '/groups/:id/labels';

  async function page(request: FastifyRequest, reply: FastifyReply, all: Label[], render: (list: Label[]) => Promise<unknown[]>) {
    const params = input(request);
    const window = parsePage(params);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), window, all.length));
    return render(all.slice(window.offset, window.offset + window.limit));
  }

  app.get(project, async (request, reply) => {
    const params = input(request);
    const result = await labels.listForProject(request.actor, pathParam(request, 'id'), {
      includeAncestorGroups: optionalBool(params, 'include_ancestor_groups') ?? true,
      search: optionalString(params, 'search') || undefined,
    });
    const withCounts = optionalBool(params, 'with_counts') === true;
    return page(request, reply, result.labels, async (list) => {
      const counts = withCounts ? await labels.counts(list.map((label) => label.id), { projectId: result.project.id }) : undefined;
      const subscribed = await labels.subscribedIds(request.actor, list, result.project.id);
      return list.map((label) => labelEntity(label, { project: true, counts: counts?.get(label.id), subscribed }));
    });
  });

  app.get(`${project}/:label_id`, async (request) => {
    const params = input(request);
    const { project: owner, label } = await labels.getForProject(request.actor, pathParam(request, 'id'), pathParam(request, 'label_id'), { includeAncestorGroups: optionalBool(params, 'include_ancestor_groups') ?? true });
    return labelEntity(label, { project: true, subscribed: await labels.subscribedIds(request.actor, [label], owner.id) });
  });

  app.post(project, async (request, reply) => {
    const { label } = await labels.createForProject(signedIn(request), pathParam(request, 'id'), labelInput(input(request), 'name'));
    return reply.status(201).send(labelEntity(label, { project: true }));
  });

  app.put(`${project}/:label_id`, async (request) => {
    const { project: owner, label } = await labels.updateForProject(signedIn(request), pathParam(request, 'id'), pathParam(request, 'label_id'), labelInput(input(request), 'new_name'));
    return labelEntity(label, { project: true, subscribed: await labels.subscribedIds(request.actor, [label], owner.id) });
  });

  app.delete(`${project}/:label_id`, async (request, reply) => {
    await labels.deleteForProject(signedIn(request), pathParam(request, 'id'), pathParam(request, 'label_id'));
    return reply.status(204).send();
  });

  app.put(`${project}/:label_id/promote`, async (request) => {
    const { label } = await labels.promote(signedIn(request), pathParam(request, 'id'), pathParam(request, 'label_id'));
    return labelEntity(label);
  });

  app.get(group, async (request, reply) => {
    const params = input(request);
    const result = await labels.listForGroup(request.actor, pathParam(request, 'id'), {
      includeAncestorGroups: optionalBool(params, 'include_ancestor_groups') ?? true,
      search: optionalString(params, 'search') || undefined,
    });
    const withCounts = optionalBool(params, 'with_counts') === true;
    return page(request, reply, result.labels, async (list) => {
      const counts = withCounts ? await labels.counts(list.map((label) => label.id), { groupId: result.group.id }) : undefined;
      const subscribed = await labels.subscribedIds(request.actor, list, null);
      return list.map((label) => labelEntity(label, { counts: counts?.get(label.id), subscribed }));
    });
  });

  app.get(`${group}/:label_id`, async (request) => {
    const params = input(request);
    const { label } = await labels.getForGroup(request.actor, pathParam(request, 'id'), pathParam(request, 'label_id'), { includeAncestorGroups: optionalBool(params, 'include_ancestor_groups') ?? true });
    return labelEntity(label, { subscribed: await labels.subscribedIds(request.actor, [label], null) });
  });

  app.post(group, async (request, reply) => {
    const { label } = await labels.createForGroup(signedIn(request), pathParam(request, 'id'), labelInput(input(request), 'name'));
    return reply.status(201).send(labelEntity(label));
  });

  app.put(`${group}/:label_id`, async (request) => {
    const { label } = await labels.updateForGroup(signedIn(request), pathParam(request, 'id'), pathParam(request, 'label_id'), labelInput(input(request), 'new_name'));
    return labelEntity(label, { subscribed: await labels.subscribedIds(request.actor, [label], null) });
  });

  app.delete(`${group}/:label_id`, async (request, reply) => {
    await labels.deleteForGroup(signedIn(request), pathParam(request, 'id'), pathParam(request, 'label_id'));
    return reply.status(204).send();
  });

  /**
   * Label subscriptions (doc/api/labels.md#subscribe-to-a-label): 201 with the label when the
   * state changed, 304 Not Modified with no body when it already was so; sign-in required.
   */
  for (const [action, subscribe] of [['subscribe', true], ['unsubscribe', false]] as const) {
    app.post(`${project}/:label_id/${action}`, async (request, reply) => {
      const { project: owner, label, changed } = await labels.setProjectSubscription(signedIn(request), pathParam(request, 'id'), pathParam(request, 'label_id'), subscribe);
      if (!changed) return reply.status(304).send();
      return reply.status(201).send(labelEntity(label, { project: true, subscribed: await labels.subscribedIds(request.actor, [label], owner.id) }));
    });
    app.post(`${group}/:label_id/${action}`, async (request, reply) => {
      const { label, changed } = await labels.setGroupSubscription(signedIn(request), pathParam(request, 'id'), pathParam(request, 'label_id'), subscribe);
      if (!changed) return reply.status(304).send();
      return reply.status(201).send(labelEntity(label, { subscribed: await labels.subscribedIds(request.actor, [label], null) }));
    });
  }
}
