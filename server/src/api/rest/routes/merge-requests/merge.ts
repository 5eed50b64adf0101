import type { FastifyInstance } from 'fastify';
import type { MergeInput } from '../../../../domains/merge-requests/merging/index.js';
import { signedIn, type RestContext } from '../../context.js';
import { Bool, Input, Optional, routes, Str, type Static } from '../../input/route-kit.js';
import { MergeRequestPath } from './input.js';
import { renderMergeRequest } from './merge-requests.js';

/**
 * The merge call's parameters (doc/api/merge_requests.md "Merge a merge request"). With
 * `auto_merge` or `merge_when_pipeline_succeeds` (GitLab ORs them) the request is set to merge
 * when its checks pass if an auto-merge strategy is available, else merged at once when its
 * pipeline allows (domains/auto-merge/).
 */
export const MergeParams = Input({
  ...MergeRequestPath,
  sha: Optional(Str({ pattern: '^[0-9a-fA-F]{40}$', description: 'the source branch head the caller saw' })),
  merge_commit_message: Optional(Str()),
  squash_commit_message: Optional(Str()),
  squash: Optional(Bool()),
  should_remove_source_branch: Optional(Bool()),
  auto_merge: Optional(Bool()),
  merge_when_pipeline_succeeds: Optional(Bool()),
  /** merge immediately without restarting the merge train (needs merge_trains_skip_train_allowed) */
  skip_merge_train: Optional(Bool()),
  auto_merge_strategy: Optional(Str({ description: 'the auto-merge strategy the merge widget sends (merge_when_checks_pass…)' })),
});

export function mergeInput(params: Static<typeof MergeParams>): MergeInput {
  return {
    sha: params.sha?.toLowerCase(),
    mergeCommitMessage: params.merge_commit_message,
    squashCommitMessage: params.squash_commit_message,
    squash: params.squash,
    shouldRemoveSourceBranch: params.should_remove_source_branch,
  };
}

/**
 * `PUT /projects/:id/merge_requests/:iid/merge`: the merged request (or the one set to
 * auto-merge), or GitLab's 401/405/409/422. `POST …/cancel_merge_when_pipeline_succeeds`:
 * 201 with the request, 401 for who may neither merge nor is the author, 405 when it is not
 * open, 406 "Can't cancel the automatic merge" when none is set.
 */
export function mergeRoutes(app: FastifyInstance, ctx: RestContext<'autoMerge' | 'mergeRequestPipelines' | 'mergeRequestViews' | 'mergeRequests' | 'mergeTrains' | 'merging' | 'pipelines'>): void {
  const r = routes(app);
  r.put('/projects/:id/merge_requests/:iid/merge', MergeParams, async (params, request) => {
    const actor = signedIn(request);
    const strategy = params.auto_merge_strategy;
    const autoMerge = params.auto_merge === true || params.merge_when_pipeline_succeeds === true || (strategy !== undefined && strategy !== '');
    const input = mergeInput(params);
    if (autoMerge) return renderMergeRequest(ctx, actor, await ctx.services.autoMerge.mergeOrSet(actor, params.id, params.iid, { ...input, strategy }));
    if (params.skip_merge_train) await ctx.services.mergeTrains.checkMergeImmediately((await ctx.services.mergeRequests.open(actor, params.id, params.iid)).project, true);
    const merged = await ctx.services.merging.merge(actor, params.id, params.iid, input);
    // A merge immediately on a project with merge trains: the train restarts on the new target (domains/merge-trains/).
    await ctx.services.mergeTrains.mergedImmediately(actor, merged, params.skip_merge_train);
    return renderMergeRequest(ctx, actor, merged);
  });
  r.post('/projects/:id/merge_requests/:iid/cancel_merge_when_pipeline_succeeds', Input({ ...MergeRequestPath }), async (params, request, reply) => {
    const actor = signedIn(request);
    const cancelled = await ctx.services.autoMerge.cancel(actor, params.id, params.iid);
    return reply.status(201).send(await renderMergeRequest(ctx, actor, cancelled));
  });
}
