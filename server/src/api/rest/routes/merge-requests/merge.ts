import type { FastifyInstance } from 'fastify';
import type { MergeInput } from '../../../../domains/merge-requests/merging/index.js';
import { ValidationError } from '../../../../platform/errors.js';
import { input, signedIn, type RestContext } from '../../context.js';
import { optionalBool, optionalString, type Params } from '../../params.js';
import { mergeRequestRef, renderMergeRequest } from './merge-requests.js';

/**
 * The merge call's parameters (doc/api/merge_requests.md "Merge a merge request"). `auto_merge`
 * and `merge_when_pipeline_succeeds` are accepted: without pipelines no auto-merge strategy is
 * available and GitLab then merges at once. Pure.
 */
export function parseMerge(params: Params): MergeInput {
  const sha = optionalString(params, 'sha');
  if (sha !== undefined && !/^[0-9a-f]{40}$/i.test(sha)) throw new ValidationError('400 (Bad request) "sha" is invalid');
  return {
    sha: sha?.toLowerCase(),
    mergeCommitMessage: optionalString(params, 'merge_commit_message'),
    squashCommitMessage: optionalString(params, 'squash_commit_message'),
    squash: optionalBool(params, 'squash'),
    shouldRemoveSourceBranch: optionalBool(params, 'should_remove_source_branch'),
  };
}

/** `PUT /projects/:id/merge_requests/:iid/merge`: the merged request, or GitLab's 401/405/409/422. */
export function mergeRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.put('/projects/:id/merge_requests/:iid/merge', async (request) => {
    const actor = signedIn(request);
    const [, id, iid] = mergeRequestRef(request);
    const merged = await ctx.services.merging.merge(actor, id, iid, parseMerge(input(request)));
    return renderMergeRequest(ctx, actor, merged);
  });
}
