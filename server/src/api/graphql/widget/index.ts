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
  services: Pick<Services, 'projects' | 'mergeRequestsRepository' | 'protectedBranches' | 'storage' | 'mergeability' | 'mergeIntents' | 'mergeRequestPipelines' | 'pipelinesRepository' | 'ciReports' | 'autoMerge'>;
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
    autoMerge: (actor, node) => services.autoMerge.stateFor(actor, node),
    mergeOngoing: async (mergeRequestId) => (await services.mergeIntents.intentsFor(mergeRequestId)).some((intent) => isUnfinished(intent.state)),
    pipelines: async (actor, node) => {
      const head = await services.mergeRequestPipelines.headPipelineFor(actor, node);
      if (!head) return { head: null, hasCi: (await services.mergeRequestPipelines.list(node, { limit: 1, offset: 0 })).total > 0, coverage: { delta: null, jobs: [] } };
      const { mergeRequest } = node;
      const [stages, warnings, coverage] = await Promise.all([
        services.pipelinesRepository.stages(head.pipeline.id),
        services.pipelinesRepository.withWarnings([head.pipeline.id]),
        services.ciReports.coverageSummary(head.pipeline, { targetProjectId: mergeRequest.target_project_id, targetBranch: mergeRequest.target_branch, baseSha: mergeRequest.base_commit_sha }),
      ]);
      return { head: { ...head, stages, warnings: warnings.has(head.pipeline.id) }, hasCi: true, coverage };
    },
    mergePipeline: async (actor, node, sha) => {
      // GitLab's merge_pipeline: the target branch's pipeline for the commit the request landed as
      const pipeline = await services.pipelinesRepository.latestForRef(node.project.id, node.mergeRequest.target_branch, sha);
      if (!pipeline || !(await deps.authorizer.can(actor, 'read_pipeline', { project: node.project }))) return null;
      const [stages, warnings] = await Promise.all([services.pipelinesRepository.stages(pipeline.id), services.pipelinesRepository.withWarnings([pipeline.id])]);
      return { pipeline, project: node.project, stages, warnings: warnings.has(pipeline.id) };
    },
    pipelineList: async (actor, node, limit) => {
      if (!(await deps.authorizer.can(actor, 'read_pipeline', { project: node.project }))) return null;
      const list = await services.mergeRequestPipelines.list(node, { limit, offset: 0 });
      const ids = list.pipelines.map((pipeline) => pipeline.id);
      const warnings = await services.pipelinesRepository.withWarnings(ids);
      const nodes = await Promise.all(
        list.pipelines
          .filter((pipeline) => list.projects.has(pipeline.project_id))
          .map(async (pipeline) => ({ pipeline, project: list.projects.get(pipeline.project_id)!, stages: await services.pipelinesRepository.stages(pipeline.id), warnings: warnings.has(pipeline.id) })),
      );
      return { count: list.total, nodes };
    },
    commitMessages: (input) =>
      defaultMessages({
        ...input,
        templates: { merge: input.project.merge_commit_template, squash: input.project.squash_commit_template },
        repoPath: services.storage.pathFor(input.mergeRequest.target_project_id),
        externalUrl: deps.externalUrl,
      }),
  }, deps.watch);
}
