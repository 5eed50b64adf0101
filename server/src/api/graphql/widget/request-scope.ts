import DataLoader from 'dataloader';
import type { Actor } from '../../../auth/actor.js';
import type { Authorizer } from '../../../auth/authorizer.js';
import type { ProjectAction } from '../../../auth/permissions.js';
import type { MergeRequest } from '../../../domains/merge-requests/merge-request.js';
import type { MergeRequestsRepository } from '../../../domains/merge-requests/merge-requests.repository.js';
import type { OpenedMergeRequest } from '../../../domains/merge-requests/merge-requests.service.js';
import type { Project } from '../../../domains/projects/project.js';
import type { ProjectsService } from '../../../domains/projects/projects.service.js';
import type { ProtectedBranch } from '../../../domains/protected-branches/protected-branch.js';
import type { ProtectedBranchesRepository } from '../../../domains/protected-branches/protected-branches.repository.js';
import type { User } from '../../../domains/users/user.js';
import { NotFoundError } from '../../../platform/errors.js';
import type { GitFacts } from './git-facts.js';
import type { MergeabilitySource } from './mergeability-adapter.js';
import { createMergeRequestView, type MergeRequestView } from './merge-request-view.js';

/** A merge request the caller may read, with the (target) project it was read through. */
export interface MergeRequestNode {
  mergeRequest: MergeRequest;
  project: Project;
}

export interface WidgetDeps {
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'abilities' | 'accessLevel'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findByIid' | 'findById' | 'usersByIds'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  gitFacts: GitFacts;
  mergeability: MergeabilitySource;
  /** merge request dependencies the caller may see (BLOCKED_STATUS), and how many it may not */
  blockers(actor: Actor, opened: OpenedMergeRequest): Promise<{ visible: MergeRequest[]; hiddenCount: number }>;
  /** a merge of the request is under way (its intent recorded, not yet settled) */
  mergeOngoing(mergeRequestId: number): Promise<boolean>;
  /** the merge and squash commit messages a merge by `merger` would use (project templates) */
  commitMessages(input: { mergeRequest: MergeRequest; project: Project; author: User | null; merger: User | null; target: string | null; head: string | null }): Promise<{ merge: string; squash: string }>;
}

/**
 * Everything one request (a GraphQL operation, one subscription delivery, or one REST widget
 * call) reads, memoised for that request: a project, a merge request or the caller's
 * abilities are loaded once however many fields ask, and users are fetched in one batch.
 * Every read goes through the projects service and the one authorizer, so what the caller
 * may not see is null here, never an error that tells it exists.
 */
export interface RequestScope {
  actor: Actor;
  project(idOrPath: number | string): Promise<Project | null>;
  abilities(project: Project): Promise<ReadonlySet<ProjectAction>>;
  /** the caller's effective access level (0 for anonymous callers and non-members) */
  accessLevel(project: Project): Promise<number>;
  mergeRequest(project: Project, iid: number): Promise<MergeRequestNode | null>;
  mergeRequestById(id: number): Promise<MergeRequestNode | null>;
  user(id: number | null): Promise<User | null>;
  protectedBranches(projectId: number): Promise<ProtectedBranch[]>;
  view(node: MergeRequestNode): MergeRequestView;
}

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
    view(node) {
      let view = views.get(node.mergeRequest.id);
      if (!view) views.set(node.mergeRequest.id, (view = createMergeRequestView(deps, scope, node)));
      return view;
    },
  };
  return scope;
}
