/**
 * GitLab's rules for trigger jobs (Ci::Bridge) and the downstream pipelines they create
 * (Ci::CreateDownstreamPipelineService), as pure functions: what a trigger asks for, the
 * variables passed down, the checks made before creating (in GitLab's order, first failure
 * wins), and the status a bridge with `strategy` takes from its downstream pipeline.
 */
import type { PipelineSource } from '../config/types.js';
import { expandVariables } from '../config/merge.js';
import type { Status } from '../engine/status.js';

/** A child pipeline may itself trigger children, two levels deep (A → B → C), as GitLab allows. */
export const MAX_NESTED_CHILDREN = 2;
/** GitLab's default `pipeline_hierarchy_size` limit: pipelines in one tree, across projects. */
export const MAX_PIPELINE_HIERARCHY_SIZE = 1000;

export type BridgeFailureReason =
  | 'downstream_bridge_project_not_found'
  | 'invalid_bridge_trigger'
  | 'reached_max_descendant_pipelines_depth'
  | 'reached_max_pipeline_hierarchy_size'
  | 'insufficient_bridge_permissions'
  | 'pipeline_loop_detected'
  | 'downstream_pipeline_creation_failed';

export interface Trigger {
  /** child pipeline: `trigger: include:` (a path, or a list of local/project/artifact entries) */
  include?: unknown;
  /** multi-project pipeline: the downstream project's full path (variables expanded) */
  project?: string;
  branch?: string;
  strategy?: 'depend' | 'mirror';
  forward: { yamlVariables: boolean; pipelineVariables: boolean };
}

/** GitLab's FORWARD_DEFAULTS: a bridge's yaml variables go down, the pipeline's do not. */
export function triggerOf(options: Record<string, unknown>, variables: Record<string, string>): Trigger | null {
  const raw = options.trigger;
  if (!raw || typeof raw !== 'object') return null;
  const trigger = raw as Record<string, unknown>;
  const forward = (trigger.forward ?? {}) as Record<string, unknown>;
  return {
    ...(trigger.include !== undefined ? { include: trigger.include } : {}),
    ...(typeof trigger.project === 'string' ? { project: expandVariables(trigger.project, variables) } : {}),
    ...(typeof trigger.branch === 'string' ? { branch: expandVariables(trigger.branch, variables) } : {}),
    ...(trigger.strategy === 'depend' || trigger.strategy === 'mirror' ? { strategy: trigger.strategy } : {}),
    forward: {
      yamlVariables: typeof forward.yaml_variables === 'boolean' ? forward.yaml_variables : true,
      pipelineVariables: typeof forward.pipeline_variables === 'boolean' ? forward.pipeline_variables : false,
    },
  };
}

export const triggersChild = (trigger: Trigger) => trigger.include !== undefined;

/** The downstream pipeline's source: `parent_pipeline` for a child, `pipeline` for another project. */
export const downstreamSource = (trigger: Trigger): PipelineSource => (triggersChild(trigger) ? 'parent_pipeline' : 'pipeline');

export interface KeyValue {
  key: string;
  value: string;
}

/**
 * The variables a bridge passes down (GitLab's Downstream::Generator): its yaml variables (job and
 * global, expanded with everything the bridge sees) when `forward:yaml_variables` (default true),
 * then the upstream pipeline's variables and its schedule's when `forward:pipeline_variables`
 * (default false). A later one of the same key wins; each key is passed once.
 */
export function downstreamVariables(input: {
  forward: Trigger['forward'];
  yamlVariables: readonly KeyValue[];
  pipelineVariables: readonly KeyValue[];
  scheduleVariables: readonly KeyValue[];
  /** every variable the bridge sees (predefined, pipeline, yaml), for expansion */
  expansion: Record<string, string>;
}): KeyValue[] {
  const expand = (list: readonly KeyValue[]) => list.map((v) => ({ key: v.key, value: expandVariables(v.value, input.expansion) }));
  const all = [
    ...(input.forward.yamlVariables ? expand(input.yamlVariables) : []),
    ...(input.forward.pipelineVariables ? [...expand(input.pipelineVariables), ...expand(input.scheduleVariables)] : []),
  ];
  const last = new Map<string, KeyValue>();
  for (const variable of all) {
    last.delete(variable.key);
    last.set(variable.key, variable);
  }
  return [...last.values()];
}

/** One pipeline of the chain of upstreams of the bridge's pipeline (the bridge's own first). */
export interface UpstreamLink {
  projectId: number;
  ref: string;
  source: PipelineSource;
}

export interface PreconditionFacts {
  trigger: Trigger;
  /** the downstream project exists and the user may read it (a child: the bridge's own project) */
  downstreamVisible: boolean;
  sameProject: boolean;
  /** the bridge's pipeline and its parent pipelines in the same project (itself included) */
  selfAndProjectAncestors: number;
  /** pipelines in the whole tree the bridge's pipeline belongs to */
  hierarchySize: number;
  /** update_pipeline upstream, create_pipeline downstream and can_update_branch? on the target ref */
  mayCreate: boolean;
  /** the bridge's pipeline and its upstreams, itself first */
  selfAndUpstreams: readonly UpstreamLink[];
}

/** Why GitLab refuses to create the downstream pipeline, in its order of checks; null when it may. */
export function preconditionFailure(facts: PreconditionFacts): BridgeFailureReason | null {
  const child = triggersChild(facts.trigger);
  if (!facts.downstreamVisible) return 'downstream_bridge_project_not_found';
  if (facts.sameProject && !child) return 'invalid_bridge_trigger';
  if (child && facts.selfAndProjectAncestors > MAX_NESTED_CHILDREN) return 'reached_max_descendant_pipelines_depth';
  if (facts.hierarchySize >= MAX_PIPELINE_HIERARCHY_SIZE) return 'reached_max_pipeline_hierarchy_size';
  if (!facts.mayCreate) return 'insufficient_bridge_permissions';
  if (!child && loopDetected(facts.selfAndUpstreams)) return 'pipeline_loop_detected';
  return null;
}

/**
 * GitLab's cyclic dependency check for multi-project pipelines: the (project, ref, source) of each
 * non-child pipeline up the chain; one cycle is allowed, the same triple three times is a loop.
 */
export function loopDetected(selfAndUpstreams: readonly UpstreamLink[]): boolean {
  const counts = new Map<string, number>();
  for (const link of selfAndUpstreams) {
    if (link.source === 'parent_pipeline') continue;
    const key = JSON.stringify([link.projectId, link.ref, link.source]);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.values()].some((count) => count > 2);
}

/**
 * The status a bridge with `strategy` takes when its downstream pipeline reaches `status`, or null
 * while it stays as it is. `depend`: success, canceled, or failed for a failed or skipped
 * pipeline; `mirror`: the downstream status itself, manual and skipped included.
 */
export function bridgeStatusFromDownstream(strategy: Trigger['strategy'], status: Status): Status | null {
  if (strategy === 'mirror') {
    return ({ success: 'success', canceled: 'canceled', failed: 'failed', manual: 'manual', skipped: 'skipped' } as Partial<Record<Status, Status>>)[status] ?? null;
  }
  if (strategy === 'depend') {
    return ({ success: 'success', canceled: 'canceled', failed: 'failed', skipped: 'failed' } as Partial<Record<Status, Status>>)[status] ?? null;
  }
  return null;
}
