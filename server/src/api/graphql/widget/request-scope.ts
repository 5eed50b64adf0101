import DataLoader from 'dataloader';
import type { Actor } from '../../../auth/actor.js';
import type { ProjectAction } from '../../../auth/permissions.js';
import type { MergeRequest } from '../../../domains/merge-requests/merge-request.js';
import type { Project } from '../../../domains/projects/project.js';
import type { User } from '../../../domains/users/user.js';
import { NotFoundError } from '../../../platform/errors.js';
import { createMergeRequestView } from './merge-request-view.js';
import type { MergeRequestNode, MergeRequestView, RequestScope, WidgetDeps } from './widget-model.js';

export type { MergeRequestNode, RequestScope, WidgetDeps } from './widget-model.js';

function memo<K, V>(compute: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const cache = new Map<K, Promise<V>>();
  return (key) => {
    let value = cache.get(key);
    if (!value) cache.set(key, (value = compute(key)));
    return value;
  };
}

/** null for NotFound (not visible or absent), anything else rethrown. */
async function orNull<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

export function createRequestScope(deps: WidgetDeps, actor: Actor): RequestScope {
  const project = memo((key: string) => orNull(deps.projects.find(actor, key)));
  const abilities = memo(async (p: Project) => (await deps.authorizer.abilities(actor, { project: p })) as ReadonlySet<ProjectAction>);
  const users = new DataLoader<number, User | null>(async (ids) => {
    const found = await deps.mergeRequests.usersByIds([...ids]);
    return ids.map((id) => found.get(id) ?? null);
  });
  const views = new Map<number, MergeRequestView>();
  const byIid = new Map<string, Promise<MergeRequestNode | null>>();

  /** The node when the caller may read merge requests of the project, else null. */
  async function readable(p: Project | null, mergeRequest: MergeRequest | undefined): Promise<MergeRequestNode | null> {
    if (!p || !mergeRequest || mergeRequest.target_project_id !== p.id) return null;
    return (await abilities(p)).has('read_merge_request') ? { mergeRequest, project: p } : null;
  }

  const scope: RequestScope = {
    actor,
    // Paths are case-insensitive (routes are looked up with lower()).
    project: (idOrPath) => project(String(idOrPath).toLowerCase()),
    abilities,
    accessLevel: (p) => deps.authorizer.accessLevel(actor, { project: p }),
    mergeRequest(p, iid) {
      const key = `${p.id}:${iid}`;
      let node = byIid.get(key);
      if (!node) byIid.set(key, (node = deps.mergeRequests.findByIid(p.id, iid).then((found) => readable(p, found))));
      return node;
    },
    mergeRequestById: memo(async (id: number) => {
      const mergeRequest = await deps.mergeRequests.findById(id);
      return mergeRequest ? readable(await scope.project(mergeRequest.target_project_id), mergeRequest) : null;
    }),
    user: (id) => (id === null ? Promise.resolve(null) : users.load(id)),
    protectedBranches: memo((projectId: number) => deps.protectedBranches.listForProject(projectId)),
    pipelines: (node, limit) => deps.pipelineList(actor, node, limit),
    mergePipeline: (node) => {
      const sha = scope.view(node).mergedCommitSha;
      return sha === null ? Promise.resolve(null) : deps.mergePipeline(actor, node, sha);
    },
    autoMerge: memo((node: MergeRequestNode) => deps.autoMerge(actor, node)),
    view(node) {
      let view = views.get(node.mergeRequest.id);
      if (!view) views.set(node.mergeRequest.id, (view = createMergeRequestView(deps, scope, node)));
      return view;
    },
  };
  return scope;
}
