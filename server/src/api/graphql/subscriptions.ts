import mercurius from 'mercurius';
import type { Actor } from '../../auth/actor.js';
import type { EventBus } from '../../platform/events.js';
import { parseGlobalId } from './global-id.js';
import type { RequestScope } from './widget/request-scope.js';

const { withFilter } = mercurius;

/**
 * GraphQL subscriptions over WebSocket (graphql-ws protocol, at /api/graphql):
 * `mergeRequestMergeStatusUpdated(issuableId)` and `mergeRequestApprovalStateUpdated(issuableId)`,
 * fed by the `merge_request.changed` domain
 * event. The event bus delivers every event to every process after its transaction commits,
 * so a page connected to any process hears a change made through any other.
 *
 * Authorization happens twice: when subscribing (a merge request the caller may not read is
 * the same error as one that does not exist) and again on every delivery, with the caller's
 * credentials and access looked up afresh, so a user removed from the project, blocked, or
 * signed out stops receiving at the next change.
 */
const mergeRequestTopic = (mergeRequestId: number) => `merge_request.changed:${mergeRequestId}`;

/** GitLab's message for a resource that does not exist or may not be seen: the same for both. */
export const RESOURCE_NOT_AVAILABLE = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

/** Who a WebSocket connection speaks for, and how to check again that it still may. */
export interface SocketIdentity {
  actor: Actor;
  /** The connection's credentials checked again (token revoked, session ended, user blocked: null). */
  refresh(): Promise<Actor | null>;
}

export interface SubscriptionDeps {
  createScope(actor: Actor): RequestScope;
}

export interface SubscriptionContext {
  identity: SocketIdentity;
  scope: RequestScope;
  pubsub: { subscribe(topic: string): Promise<AsyncIterable<unknown>> };
}

export interface ChangedPayload {
  mergeRequestId: number;
}

export interface SubscriptionResolvers {
  mergeRequestMergeStatusUpdated: { subscribe: unknown; resolve: unknown };
  mergeRequestApprovalStateUpdated: { subscribe: unknown; resolve: unknown };
}

export function subscriptionResolvers(deps: SubscriptionDeps): SubscriptionResolvers {
  const updated = () => ({
    subscribe: withFilter<ChangedPayload, unknown, SubscriptionContext, { issuableId: string }>(
      async (_root, args, ctx) => {
        const parsed = parseGlobalId(args.issuableId, ['MergeRequest']);
        ctx.scope = deps.createScope(ctx.identity.actor);
        if (!parsed || !(await ctx.scope.mergeRequestById(parsed.id))) throw new Error(RESOURCE_NOT_AVAILABLE);
        return ctx.pubsub.subscribe(mergeRequestTopic(parsed.id));
      },
      // Each delivery is a new request: fresh credentials, fresh access levels, fresh rows.
      async (payload, _args, ctx) => {
        const actor = await ctx.identity.refresh().catch(() => null);
        if (!actor) return false;
        ctx.scope = deps.createScope(actor);
        return (await ctx.scope.mergeRequestById(payload.mergeRequestId)) !== null;
      },
    ),
    resolve: (payload: ChangedPayload, _args: unknown, ctx: SubscriptionContext) => ctx.scope.mergeRequestById(payload.mergeRequestId),
  });
  return {
    mergeRequestMergeStatusUpdated: updated(),
    // every approval, unapproval, reset and verdict announces merge_request.changed in its transaction
    mergeRequestApprovalStateUpdated: updated(),
  };
}

/** Forwards `merge_request.changed` to this process's subscribers; returns the unsubscribe. */
export function bridgeMergeRequestEvents(
  events: Pick<EventBus, 'subscribe'>,
  pubsub: { publish(event: { topic: string; payload: unknown }): unknown },
): () => void {
  return events.subscribe('merge_request.changed', async (event) => {
    const payload: ChangedPayload = { mergeRequestId: event.payload.mergeRequestId };
    await pubsub.publish({ topic: mergeRequestTopic(payload.mergeRequestId), payload });
  });
}
