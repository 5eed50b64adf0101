import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../../context.js';
import { mergeRequestChangeRoutes } from './changes.js';
import { forkRoutes } from './forks.js';
import { mergeRoutes } from './merge.js';
import { mergeRequestCrudRoutes } from './merge-requests.js';
import { mergeabilityRoutes } from './mergeability.js';
import { mergeRequestPipelineRoutes } from './pipelines.js';
import { rebaseRoutes } from './rebase.js';

/** Merge requests, what they change, and the forks they come from. */
export function mergeRequestRoutes(app: FastifyInstance, ctx: RestContext<'autoMerge' | 'forks' | 'mergeRequestChanges' | 'mergeRequestPipelines' | 'mergeRequestViews' | 'mergeRequests' | 'mergeTrains' | 'mergeability' | 'merging' | 'pipelines' | 'projectAvatars' | 'projectTransfer' | 'projects' | 'rebasing'>): void {
  mergeRequestCrudRoutes(app, ctx);
  mergeRequestChangeRoutes(app, ctx);
  forkRoutes(app, ctx);
  mergeRoutes(app, ctx);
  rebaseRoutes(app, ctx);
  mergeabilityRoutes(app, ctx);
  mergeRequestPipelineRoutes(app, ctx);
}
