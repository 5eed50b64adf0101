/**
 * Resolvers of the merge train fields (schema.ts). Reads go through the merge trains service
 * the REST API uses, so who may read a train (Developer and above, on a project that runs
 * merge trains) is decided once; a car's pipeline shows only to callers who may read pipelines.
 */
import type { Car } from '../../../domains/merge-trains/index.js';
import { mergeTrainsEnabled } from '../../../domains/merge-trains/index.js';
import type { MergeTrainsService } from '../../../domains/merge-trains/merge-trains.service.js';
import type { Project } from '../../../domains/projects/project.js';
import { globalId } from '../global-id.js';
import type { GraphqlContext } from '../resolvers.js';
import type { MergeRequestNode } from '../widget/request-scope.js';

export interface MergeTrainsGraphqlDeps {
  mergeTrains: Pick<MergeTrainsService, 'position' | 'authorizeRead' | 'carsOfProject' | 'facts'>;
}

type CarNode = { car: Car; project: Project; index: number | null };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL arguments differ per field; each resolver types its own
type Resolver<P> = (parent: P, args: any, context: GraphqlContext) => unknown;
type ResolverMap = Record<string, object>;

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);
const MAX_PAGE = 100;
const cursorOf = (offset: number) => Buffer.from(String(offset)).toString('base64');
const offsetOf = (cursor: string | undefined) => {
  const value = cursor ? Number(Buffer.from(cursor, 'base64').toString('utf8')) : 0;
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
};

export function createMergeTrainResolvers(deps: MergeTrainsGraphqlDeps) {
  /** The caller may read the project's trains: null otherwise (GitLab's authorize :read_merge_train). */
  async function readable(project: Project, ctx: GraphqlContext): Promise<boolean> {
    ctx.noStore?.();
    return deps.mergeTrains.authorizeRead(ctx.scope.actor, project).then(
      () => true,
      () => false,
    );
  }

  /**
   * A request's place on its train, read once per request (or subscription delivery): the
   * fields that show it (mergeTrainCar, mergeTrainIndex, mergeTrainsCount) must agree even when
   * the train moves while the answer is resolved.
   */
  const positions = new WeakMap<GraphqlContext['scope'], Map<number, ReturnType<MergeTrainsGraphqlDeps['mergeTrains']['position']>>>();
  const position = ({ mergeRequest }: MergeRequestNode, ctx: GraphqlContext) => {
    let read = positions.get(ctx.scope);
    if (!read) positions.set(ctx.scope, (read = new Map()));
    let found = read.get(mergeRequest.id);
    if (!found) read.set(mergeRequest.id, (found = deps.mergeTrains.position(mergeRequest)));
    return found;
  };

  const MergeRequest: Record<string, Resolver<MergeRequestNode>> = {
    mergeTrainCar: async (node, _, ctx) => {
      if (!mergeTrainsEnabled(node.project) || !(await readable(node.project, ctx))) return null;
      const found = await position(node, ctx);
      return found ? { car: found.car, project: node.project, index: found.index } : null;
    },
    mergeTrainIndex: async (node, _, ctx) => (mergeTrainsEnabled(node.project) && (await readable(node.project, ctx)) ? ((await position(node, ctx))?.index ?? null) : null),
    mergeTrainsCount: async (node, _, ctx) => {
      if (!mergeTrainsEnabled(node.project) || !(await readable(node.project, ctx))) return null;
      const found = await position(node, ctx);
      if (found) return found.count;
      return (await deps.mergeTrains.carsOfProject(node.project.id, { targetBranch: node.mergeRequest.target_branch, scope: 'active', sort: 'asc', limit: 1, offset: 0 })).total;
    },
  };

  const Project: Record<string, Resolver<Project>> = {
    mergeTrains: async (project, args: { targetBranches?: string[] | null; status?: 'ACTIVE' | 'COMPLETED' }, ctx) => {
      if (!(await readable(project, ctx))) return null;
      const scope = args.status === 'COMPLETED' ? 'complete' : 'active';
      const { cars } = await deps.mergeTrains.carsOfProject(project.id, { scope, sort: 'asc', limit: 1000, offset: 0 });
      const branches = [...new Set(cars.map((car) => car.target_branch))].filter((branch) => !args.targetBranches || args.targetBranches.includes(branch));
      const nodes = branches.map((targetBranch) => ({ project, targetBranch, defaultScope: scope }));
      return { count: nodes.length, nodes };
    },
  };

  const MergeTrain: Record<string, Resolver<{ project: Project; targetBranch: string; defaultScope: 'active' | 'complete' }>> = {
    targetBranch: (train) => train.targetBranch,
    cars: async (train, args: { activityStatus?: 'ACTIVE' | 'COMPLETED'; first?: number; after?: string }) => {
      const scope = args.activityStatus ? (args.activityStatus === 'COMPLETED' ? 'complete' : 'active') : train.defaultScope;
      const limit = Math.min(Math.max(args.first ?? 20, 0), MAX_PAGE);
      const offset = offsetOf(args.after);
      // the queue front first; the history newest first (GitLab's cars resolver orders them so)
      const { cars, total } = await deps.mergeTrains.carsOfProject(train.project.id, { targetBranch: train.targetBranch, scope, sort: scope === 'active' ? 'asc' : 'desc', limit, offset });
      const nodes = cars.map((car, i) => ({ car, project: train.project, index: scope === 'active' ? offset + i : null }));
      return {
        count: total,
        nodes,
        pageInfo: { hasNextPage: offset + nodes.length < total, hasPreviousPage: offset > 0, startCursor: nodes.length ? cursorOf(offset) : null, endCursor: nodes.length ? cursorOf(offset + nodes.length) : null },
      };
    },
  };

  const MergeTrainCar: Record<string, Resolver<CarNode>> = {
    id: ({ car }) => globalId('MergeTrains::Car', car.id),
    index: ({ index }) => index,
    status: ({ car }) => car.status.toUpperCase(),
    targetBranch: ({ car }) => car.target_branch,
    mergeRequest: ({ car }, _, ctx) => ctx.scope.mergeRequestById(car.merge_request_id),
    pipeline: async ({ car, project }, _, ctx) => {
      if (car.pipeline_id === null || !(await ctx.scope.abilities(project)).has('read_pipeline')) return null;
      const pipeline = (await deps.mergeTrains.facts([car])).pipelines.get(car.pipeline_id);
      return pipeline ? { pipeline, project } : null;
    },
    user: ({ car }, _, ctx) => ctx.scope.user(car.user_id),
    createdAt: ({ car }) => iso(car.created_at),
    updatedAt: ({ car }) => iso(car.updated_at),
    mergedAt: ({ car }) => iso(car.merged_at),
    duration: ({ car }) => car.duration,
  };

  return { MergeRequest, Project, MergeTrain, MergeTrainCar };
}

export function withMergeTrains<R extends ResolverMap>(base: R, deps: MergeTrainsGraphqlDeps): ResolverMap {
  const trains = createMergeTrainResolvers(deps);
  const baseOf = (name: string) => (base[name] ?? {}) as Record<string, unknown>;
  return {
    ...base,
    MergeRequest: { ...baseOf('MergeRequest'), ...trains.MergeRequest },
    Project: { ...baseOf('Project'), ...trains.Project },
    MergeTrain: trains.MergeTrain,
    MergeTrainCar: trains.MergeTrainCar,
  };
}
