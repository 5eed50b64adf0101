import type { MergeRequest } from '../../../domains/merge-requests/merge-request.js';
import type { Project } from '../../../domains/projects/project.js';
import { canMergeIntoBranch, isAllowed, protectionsFor } from '../../../domains/protected-branches/push-rules.js';
import { collaborationPossible } from '../../../domains/merge-requests/collaboration.js';
import type { ProtectedBranch } from '../../../domains/protected-branches/protected-branch.js';
import { normalizeMergeability } from './mergeability-adapter.js';
import { widgetPermissions } from './widget-permissions.js';
import type { MergeRequestNode, MergeRequestView, RequestScope, WidgetDeps } from './widget-model.js';

export type { MergeRequestView } from './widget-model.js';

function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= compute());
}

export function createMergeRequestView(
  deps: Pick<WidgetDeps, 'gitFacts' | 'mergeability' | 'blockers' | 'mergeOngoing' | 'commitMessages' | 'pipelines'>,
  scope: RequestScope,
  node: MergeRequestNode,
): MergeRequestView {
  const { mergeRequest: mr, project } = node;
  const { actor } = scope;
  const sourceProjectId = mr.source_project_id;
  const mergedCommitSha = mr.state === 'merged' ? (mr.merge_commit_sha ?? mr.squash_commit_sha ?? mr.head_commit_sha) : null;

  const sourceTip = once(async () => (sourceProjectId === null ? null : deps.gitFacts.branchTip(sourceProjectId, mr.source_branch)));
  const sourceProtections = once(async () => (sourceProjectId === null ? [] : protectionsFor(mr.source_branch, await scope.protectedBranches(sourceProjectId))));

  /** May the caller do `kind` on a branch with these protections (true when it has none)? */
  async function allowedBy(kind: 'merge' | 'push', matching: ProtectedBranch[], on: Project): Promise<boolean> {
    if (matching.length === 0) return true;
    if (!actor.user) return false;
    const accessLevel = await scope.accessLevel(on);
    return isAllowed(kind, { userId: actor.user.id, isAdmin: actor.user.is_admin, accessLevel }, matching);
  }

  const permissions = once(async () => {
    const sourceProject = sourceProjectId === null ? null : sourceProjectId === project.id ? project : await scope.project(sourceProjectId);
    const [target, source, targetProtections, sourceMatching, tip] = await Promise.all([
      scope.abilities(project),
      sourceProject ? scope.abilities(sourceProject) : null,
      scope.protectedBranches(project.id),
      sourceProtections(),
      sourceTip(),
    ]);
    return widgetPermissions({
      signedIn: actor.user !== null,
      isAuthor: actor.user !== null && mr.author_id === actor.user.id,
      state: mr.state,
      target,
      source,
      mayMergeIntoTarget: actor.user !== null && canMergeIntoBranch({ userId: actor.user.id, isAdmin: actor.user.is_admin, accessLevel: await scope.accessLevel(project) }, mr.target_branch, targetProtections, project.archived),
      pushAllowedOnSource: sourceProject ? await allowedBy('push', sourceMatching, sourceProject) : false,
      sourceBranchProtected: sourceMatching.length > 0,
      sourceIsDefaultBranch: sourceProject?.default_branch === mr.source_branch,
      sourceAtHead: tip !== null && tip === mr.head_commit_sha,
      // the same conditions as a push through collaboration (domains/merge-requests/collaboration.ts)
      allowCollaboration:
        mr.state === 'opened' &&
        mr.allow_collaboration &&
        sourceProject !== null &&
        collaborationPossible({
          sourceProjectId: sourceProject.id,
          targetProjectId: project.id,
          sourceVisibility: sourceProject.visibility,
          targetVisibility: project.visibility,
          sourceBranchProtected: sourceMatching.length > 0,
        }),
      mergedCommitSha,
    });
  });

  const targetTip = once(() => deps.gitFacts.branchTip(mr.target_project_id, mr.target_branch));

  const blockers = once(async () => {
    const { visible, hiddenCount } = await deps.blockers(actor, { project, mergeRequest: mr, abilities: new Set(await scope.abilities(project)) });
    // Each blocker with the project it lives in, as this caller sees it (blockers may be in other projects).
    const nodes = await Promise.all(visible.map(async (blocker: MergeRequest) => {
      const home = blocker.target_project_id === project.id ? project : await scope.project(blocker.target_project_id);
      return home ? { mergeRequest: blocker, project: home } : null;
    }));
    const shown = nodes.filter((node): node is MergeRequestNode => node !== null);
    return { visible: shown, hiddenCount: hiddenCount + nodes.length - shown.length };
  });

  /** Rendered by the merging domain from the project's templates; GitLab's default wording without a user to name. */
  const commitMessages = once(async () => {
    // GitLab's default templates name no user: the author is read only for a project's own templates.
    const customTemplates = project.merge_commit_template !== null || project.squash_commit_template !== null;
    const [author, target] = await Promise.all([customTemplates || !actor.user ? scope.user(mr.author_id) : null, targetTip()]);
    return deps.commitMessages({ mergeRequest: mr, project, author, merger: actor.user ?? author, target: target ?? mr.start_commit_sha, head: mr.head_commit_sha });
  });

  return {
    sourceTip,
    targetTip,
    mergeability: once(async () => normalizeMergeability(await deps.mergeability.evaluate(mr, project))),
    commitsWithoutMergeCommits: once(async () =>
      mr.start_commit_sha && mr.head_commit_sha ? deps.gitFacts.commitsWithoutMerges(mr.target_project_id, mr.start_commit_sha, mr.head_commit_sha) : [],
    ),
    sourceBranchProtected: once(async () => (await sourceProtections()).length > 0),
    permissions,
    blockers,
    // Only an open request can be being merged; a merged one settled its intent.
    mergeOngoing: once(async () => mr.state === 'opened' && deps.mergeOngoing(mr.id)),
    commitMessages,
    pipelines: once(() => deps.pipelines(actor, node)),
    mergedCommitSha,
  };
}
