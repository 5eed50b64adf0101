/**
 * Resolvers of labels and milestones in GraphQL (schema.ts). Reads go through the services
 * the REST routes use; the mutations call the merge request update the REST API's PUT calls,
 * so labels and milestones change in its transaction with their system notes.
 */
import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import { textColorFor } from '../../../domains/labels/label-rules.js';
import type { Label } from '../../../domains/labels/labels.repository.js';
import type { LabelsService } from '../../../domains/labels/labels.service.js';
import type { MetadataInput } from '../../../domains/merge-requests/merge-request-metadata.js';
import type { MergeRequestsService } from '../../../domains/merge-requests/merge-requests.service.js';
import { isExpired } from '../../../domains/milestones/milestone-rules.js';
import type { Milestone } from '../../../domains/milestones/milestones.repository.js';
import type { MilestonesService } from '../../../domains/milestones/milestones.service.js';
import type { Project } from '../../../domains/projects/project.js';
import { globalIdScalar } from '../editor/scalars.js';
import { resourceNotAvailable, mutation } from '../editor/errors.js';
import { echo, iidOf, nodeOf, writer, type MergeRequestInput, type Mutation } from '../editor/mutations.js';
import { LABEL_ID, MILESTONE_ID, recordId, type ParsedGlobalId } from '../global-id.js';
import type { GraphqlContext } from '../resolvers.js';
import type { MergeRequestNode, RequestScope } from '../widget/request-scope.js';

export interface LabelsGraphqlDeps {
  labels: Pick<LabelsService, 'forMergeRequests' | 'listForProject'>;
  milestones: Pick<MilestonesService, 'byIds' | 'available'>;
  mergeRequests: Pick<MergeRequestsService, 'update'>;
}

type OperationMode = 'REPLACE' | 'APPEND' | 'REMOVE';

/** GitLab's MutationOperationMode as the merge request update's label input (label_ids, add_label_ids, remove_label_ids). Pure. */
export function labelIdsInput(ids: number[], mode: OperationMode | null | undefined): Pick<MetadataInput, 'labelIds' | 'addLabelIds' | 'removeLabelIds'> {
  if (mode === 'APPEND') return { addLabelIds: ids };
  if (mode === 'REMOVE') return { removeLabelIds: ids };
  return { labelIds: ids };
}

const iso = (date: Date) => date.toISOString();
const connection = <T>(nodes: T[]) => ({ count: nodes.length, nodes, pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } });

export function createLabelResolvers(deps: LabelsGraphqlDeps) {
  // One batch per request for every merge request of a list that asks for its labels or milestone.
  const loaders = new WeakMap<RequestScope, { labels: DataLoader<number, Label[]>; milestones: DataLoader<number, Milestone | null> }>();
  const loadersOf = (scope: RequestScope) => {
    let found = loaders.get(scope);
    if (!found) {
      found = {
        labels: new DataLoader(async (ids) => {
          const byMergeRequest = await deps.labels.forMergeRequests(ids);
          return ids.map((id) => byMergeRequest.get(id) ?? []);
        }),
        milestones: new DataLoader(async (ids) => {
          const byId = await deps.milestones.byIds([...ids]);
          return ids.map((id) => byId.get(id) ?? null);
        }),
      };
      loaders.set(scope, found);
    }
    return found;
  };

  /** The merge request a mutation names, when the caller may update it; otherwise nothing is there. */
  async function updatable(ctx: GraphqlContext, input: MergeRequestInput): Promise<{ node: MergeRequestNode; iid: number }> {
    const iid = iidOf(input.iid);
    const project = await ctx.scope.project(input.projectPath);
    const node = project ? await ctx.scope.mergeRequest(project, iid) : null;
    if (!node || !(await ctx.scope.abilities(node.project)).has('update_merge_request')) throw resourceNotAvailable();
    return { node, iid };
  }

  const Mutation = {
    mergeRequestSetLabels: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const { node, iid } = await updatable(ctx, input);
      // ids of labels the project is not offered are left out, as GitLab's update service does
      const ids = input.labelIds.map(recordId).filter((id): id is number => id !== null);
      return {
        ...echo(input),
        ...(await mutation(async () => ({ mergeRequest: nodeOf(await deps.mergeRequests.update(actor, node.project.id, iid, labelIdsInput(ids, input.operationMode))) }))),
      };
    }) satisfies Mutation<MergeRequestInput & { labelIds: ParsedGlobalId[]; operationMode?: OperationMode | null }>,

    mergeRequestSetMilestone: (async (_, { input }, ctx) => {
      const actor = writer(ctx);
      const { node, iid } = await updatable(ctx, input);
      let milestoneId: number | null = null;
      if (input.milestoneId) {
        // GitLab loads the milestone first (`loads: MilestoneType`); one this project cannot use names nothing here.
        const id = recordId(input.milestoneId);
        const milestone = id === null ? undefined : await deps.milestones.available(node.project, id);
        if (!milestone) throw new GraphQLError(`No object found for \`milestoneId: "gid://gitlab/${input.milestoneId.type}/${input.milestoneId.id}"\``);
        milestoneId = milestone.id;
      }
      return { ...echo(input), ...(await mutation(async () => ({ mergeRequest: nodeOf(await deps.mergeRequests.update(actor, node.project.id, iid, { milestoneId })) }))) };
    }) satisfies Mutation<MergeRequestInput & { milestoneId?: ParsedGlobalId | null }>,
  };

  return {
    scalars: { LabelID: globalIdScalar('LabelID', LABEL_ID), MilestoneID: globalIdScalar('MilestoneID', MILESTONE_ID) },
    MergeRequest: {
      labels: async (node: MergeRequestNode, _: unknown, ctx: GraphqlContext) => connection(await loadersOf(ctx.scope).labels.load(node.mergeRequest.id)),
      milestone: (node: MergeRequestNode, _: unknown, ctx: GraphqlContext) => (node.mergeRequest.milestone_id === null ? null : loadersOf(ctx.scope).milestones.load(node.mergeRequest.milestone_id)),
    },
    Project: {
      labels: async (project: Project, args: { searchTerm?: string | null; title?: string | null; includeAncestorGroups?: boolean | null }, ctx: GraphqlContext) => {
        const { labels } = await deps.labels.listForProject(ctx.scope.actor, project.id, { includeAncestorGroups: args.includeAncestorGroups === true, search: args.searchTerm || undefined });
        return connection(args.title ? labels.filter((label) => label.title === args.title) : labels);
      },
    },
    Label: {
      id: (label: Label) => `gid://gitlab/${label.project_id !== null ? 'ProjectLabel' : 'GroupLabel'}/${label.id}`,
      textColor: (label: Label) => textColorFor(label.color),
      createdAt: (label: Label) => iso(label.created_at),
      updatedAt: (label: Label) => iso(label.updated_at),
    },
    Milestone: {
      id: (milestone: Milestone) => `gid://gitlab/Milestone/${milestone.id}`,
      iid: (milestone: Milestone) => String(milestone.iid),
      dueDate: (milestone: Milestone) => milestone.due_date,
      startDate: (milestone: Milestone) => milestone.start_date,
      expired: (milestone: Milestone) => isExpired(milestone.due_date, new Date().toISOString().slice(0, 10)),
      webPath: (milestone: Milestone) => (milestone.project_id !== null ? `/${milestone.owner_full_path}/-/milestones/${milestone.iid}` : `/groups/${milestone.owner_full_path}/-/milestones/${milestone.iid}`),
      projectMilestone: (milestone: Milestone) => milestone.project_id !== null,
      groupMilestone: (milestone: Milestone) => milestone.group_id !== null,
      createdAt: (milestone: Milestone) => iso(milestone.created_at),
      updatedAt: (milestone: Milestone) => iso(milestone.updated_at),
    },
    Mutation,
  };
}

type ResolverMap = Record<string, object>;

/** Adds the label and milestone resolvers to the rest of the schema's. */
export function withLabels(base: ResolverMap, deps: LabelsGraphqlDeps): ResolverMap {
  const labels = createLabelResolvers(deps);
  return {
    ...base,
    ...labels.scalars,
    MergeRequest: { ...(base.MergeRequest ?? {}), ...labels.MergeRequest },
    Project: { ...(base.Project ?? {}), ...labels.Project },
    Label: labels.Label,
    Milestone: labels.Milestone,
    Mutation: { ...(base.Mutation ?? {}), ...labels.Mutation },
  };
}
