import type { FastifyInstance } from 'fastify';
import type { MergeInput } from '../../../../domains/merge-requests/merging/index.js';
import { signedIn, type RestContext } from '../../context.js';
import { Bool, Input, Optional, routes, Str, type Static } from '../../input/route-kit.js';
import { MergeRequestPath } from './input.js';
import { renderMergeRequest } from './merge-requests.js';

/**
 * The merge call's parameters (doc/api/merge_requests.md "Merge a merge request"). `auto_merge`
 * and `merge_when_pipeline_succeeds` are accepted: without pipelines no auto-merge strategy is
 * available and GitLab then merges at once.
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

/** `PUT /projects/:id/merge_requests/:iid/merge`: the merged request, or GitLab's 401/405/409/422. */
export function mergeRoutes(app: FastifyInstance, ctx: RestContext<'mergeRequestPipelines' | 'mergeRequestViews' | 'mergeRequests' | 'mergeTrains' | 'merging' | 'pipelines'>): void {
  routes(app).put('/projects/:id/merge_requests/:iid/merge', MergeParams, async (params, request) => {
    const actor = signedIn(request);
    if (params.skip_merge_train) await ctx.services.mergeTrains.checkMergeImmediately((await ctx.services.mergeRequests.open(actor, params.id, params.iid)).project, true);
    const merged = await ctx.services.merging.merge(actor, params.id, params.iid, mergeInput(params));
    // A merge immediately on a project with merge trains: the train restarts on the new target (domains/merge-trains/).
    await ctx.services.mergeTrains.mergedImmediately(actor, merged, params.skip_merge_train);
    return renderMergeRequest(ctx, actor, merged);
  });
}
