import type { Authorizer } from '../../../auth/authorizer.js';
import type { Services } from '../../../app.js';
import { defaultMessages } from '../../../domains/merge-requests/merging/default-messages.js';
import { isUnfinished } from '../../../domains/merge-requests/merging/merge-intent.js';
import type { EventBus } from '../../../platform/events.js';
import type { WriteWatch } from '../../../platform/db/write-watch.js';
import { cacheWidgetReads } from './cached-reads.js';
import { createGitFacts } from './git-facts.js';
import { cacheProtectedBranches } from './protected-branches-cache.js';
import type { WidgetDeps } from './request-scope.js';

export type { WidgetDeps } from './request-scope.js';

/**
 * What the merge widget reads, for GraphQL and the REST widget endpoint alike: the domain
 * services it reads through, and the per-process caches (database reads until a table they
 * read is written, git facts invalidated by domain events, protected-branch rules for a few
 * seconds).
 */
export function createMergeRequestWidgets(deps: {
  services: Pick<Services, 'projects' | 'mergeRequestsRepository' | 'protectedBranches' | 'storage' | 'mergeability' | 'mergeIntents'>;
  authorizer: Authorizer;
  events: Pick<EventBus, 'subscribe'>;
  watch: Pick<WriteWatch, 'generation'>;
  externalUrl: string;
}): WidgetDeps {
  const { services } = deps;
  return cacheWidgetReads({
    projects: services.projects,
    authorizer: deps.authorizer,
    mergeRequests: services.mergeRequestsRepository,
    protectedBranches: cacheProtectedBranches(services.protectedBranches, deps.watch),
    gitFacts: createGitFacts({ storage: services.storage, events: deps.events }),
    mergeability: services.mergeability,
    blockers: (actor, opened) => services.mergeability.blocks.visibleBlockers(actor, opened),
    mergeOngoing: async (mergeRequestId) => (await services.mergeIntents.intentsFor(mergeRequestId)).some((intent) => isUnfinished(intent.state)),
    commitMessages: (input) =>
      defaultMessages({
        ...input,
        templates: { merge: input.project.merge_commit_template, squash: input.project.squash_commit_template },
        repoPath: services.storage.pathFor(input.mergeRequest.target_project_id),
        externalUrl: deps.externalUrl,
      }),
  }, deps.watch);
}
