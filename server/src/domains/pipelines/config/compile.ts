/**
 * compilePipelineConfig: a `.gitlab-ci.yml` and a pipeline's context to the plan GitLab would
 * create (stages, jobs with every attribute resolved), or GitLab's `yaml_errors`.
 *
 * The steps are GitLab's, in its order: `[ci skip]` → YAML → includes → extends → !reference →
 * validation of every entry (all errors reported) → logical checks (stages, needs, dependencies,
 * on_stop; the first error) → workflow:rules → each job's rules or only/except → parallel
 * instances → needs against the jobs kept → limits.
 */
import { ExtendsError, resolveExtends } from './extends.js';
import { IncludeError, resolveIncludes } from './includes.js';
import { normalizeVariables } from './job-attributes.js';
import { checkStartIn, DEFAULT_KEYS, normalizeJob, type JobDefinition } from './job.js';
import { MAX_JOBS_PER_PIPELINE } from './limits.js';
import { expandParallel } from './matrix.js';
import { expandVariables } from './merge.js';
import { resolveNeeds, validateNeedsAndDependencies, type SeededInstance } from './needs.js';
import { firstMatchingRule, onlyExceptIncludes } from './rules.js';
import { skipsCi } from './skip-ci.js';
import type { CompileResult, JobWhen, PipelineContext, PlannedJob, ReadArtifactFile, ReadConfigFile } from './types.js';
import { environmentSlug } from '../../environments/environment-rules.js';
import { evaluateWorkflow, FILTERED_BY_WORKFLOW, validateWorkflow } from './workflow.js';
import { isPlainObject, loadYaml } from './yaml-loader.js';

const ROOT_KEYS = ['image', 'services', 'before_script', 'after_script', 'variables', 'cache', 'stages', 'types', 'default', 'workflow', 'spec'];
const DEFAULT_STAGES = ['build', 'test', 'deploy'];
export const NO_JOBS_MESSAGE =
  'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.';

export async function compilePipelineConfig(
  yaml: string,
  context: PipelineContext,
  readFile: ReadConfigFile,
  /** a child pipeline's reader of its parent's artifacts (`include: artifact`) */
  readArtifact?: ReadArtifactFile,
): Promise<CompileResult> {
  if (skipsCi(context)) return { status: 'skipped', reason: 'ci_skip', message: 'Pipeline skipped by [ci skip]' };
  const fail = (errors: string[]): CompileResult => ({ status: 'error', errors, warnings: [] });
  if (yaml.trim() === '') return fail(['Please provide content of .gitlab-ci.yml']);

  const loaded = loadYaml(yaml);
  if (!loaded.ok) return fail([loaded.error]);
  let config: Record<string, unknown>;
  let includes;
  try {
    ({ config, includes } = await resolveIncludes(loaded.value, context, readFile, Buffer.byteLength(yaml, 'utf8'), readArtifact));
    config = resolveExtends(config);
  } catch (error) {
    if (error instanceof IncludeError || error instanceof ExtendsError) return fail([error.message]);
    throw error;
  }

  const errors: string[] = [];
  const stages = normalizeStages(config, errors);
  const globalVariables = normalizeVariables(config.variables, '', errors) ?? {};
  const defaults = normalizeDefaults(config, errors);
  errors.push(...validateWorkflow(config.workflow));
  const definitions = new Map<string, JobDefinition>();
  for (const [name, raw] of Object.entries(config)) {
    if (ROOT_KEYS.includes(name) || name.startsWith('.')) continue;
    const job = normalizeJob(name, raw, defaults, errors);
    if (job) definitions.set(name, job);
  }
  if (definitions.size === 0 && errors.length === 0) errors.push('jobs config should contain at least one visible job');
  if (errors.length > 0) return fail(errors);

  const logical = logicalError(definitions, stages);
  if (logical) return fail([logical]);

  // workflow:rules see the global variables and the pipeline's; the pipeline's win.
  const workflow = evaluateWorkflow(config.workflow, context, { ...globalVariables, ...context.variables });
  if (!workflow.run) return { status: 'skipped', reason: 'filtered_by_workflow_rules', message: FILTERED_BY_WORKFLOW };

  const seeded: { definition: JobDefinition; job: PlannedJob; instance: SeededInstance }[] = [];
  for (const definition of definitions.values()) {
    const inherited = inheritVariables(globalVariables, definition.inheritVariables);
    const jobVariables = { ...inherited, ...workflow.variables, ...definition.variables };
    const visible = { ...jobVariables, ...context.variables };
    const decision = decide(definition, context, visible);
    if (!decision) continue;
    if (decision.error) return fail([decision.error]);
    for (const instance of expandParallel(definition.name, definition.parallel)) {
      const variables = { ...jobVariables, ...instance.variables, ...decision.variables };
      seeded.push({
        definition: decision.definition,
        instance: { name: instance.name, baseName: definition.name, matrix: instance.parallel && 'matrix' in instance.parallel ? instance.parallel.matrix : undefined },
        job: plannedJob(decision, instance, variables, stages, context),
      });
    }
  }
  if (seeded.length === 0 || seeded.every(({ job }) => job.stage === '.pre' || job.stage === '.post')) {
    return { status: 'skipped', reason: 'no_jobs', message: NO_JOBS_MESSAGE };
  }
  if (seeded.length > MAX_JOBS_PER_PIPELINE) {
    return fail([
      `The number of jobs has exceeded the limit of ${MAX_JOBS_PER_PIPELINE}. Try splitting the configuration with parent-child-pipelines.`,
    ]);
  }
  const present = seeded.map(({ instance }) => instance);
  for (const { definition, job } of seeded) {
    if (!definition.needs) continue;
    const resolved = resolveNeeds(job.name, definition.needs, present);
    if ('error' in resolved) return fail([resolved.error]);
    job.needs = resolved.needs;
    if (definition.needs.cross.length > 0) {
      job.crossNeeds = definition.needs.cross;
      // GitLab keeps them in options[:cross_dependencies]: the runner protocol hands their artifacts over
      job.options = { ...job.options, cross_dependencies: crossDependencies(definition.needs.cross) };
    }
  }
  const presentNames = new Set(present.map((instance) => instance.baseName));
  for (const { job } of seeded) {
    if (job.dependencies) job.dependencies = job.dependencies.filter((name) => presentNames.has(name));
  }

  const jobs = seeded.map(({ job }) => job).sort((a, b) => a.stageIdx - b.stageIdx);
  const usedStages = stages.filter((stage) => jobs.some((job) => job.stage === stage));
  return {
    status: 'created',
    plan: {
      stages: usedStages,
      jobs,
      ...(workflow.name ? { name: workflow.name } : {}),
      warnings: [],
      mergedConfig: config,
      includes,
    },
  };
}

function normalizeStages(config: Record<string, unknown>, errors: string[]): string[] {
  const declared = config.stages ?? config.types;
  if (declared !== undefined && (!Array.isArray(declared) || !declared.every((stage) => typeof stage === 'string'))) {
    errors.push('stages config should be an array of strings');
    return ['.pre', ...DEFAULT_STAGES, '.post'];
  }
  const list = ((declared as string[] | undefined) ?? DEFAULT_STAGES).filter((stage) => stage !== '.pre' && stage !== '.post');
  return ['.pre', ...new Set(list), '.post'];
}

/** `default:` over the legacy top-level `image`, `services`, `before_script`, `after_script`, `cache`. */
function normalizeDefaults(config: Record<string, unknown>, errors: string[]): Record<string, unknown> {
  const legacy: Record<string, unknown> = {};
  for (const key of ['image', 'services', 'before_script', 'after_script', 'cache']) {
    if (config[key] !== undefined) legacy[key] = config[key];
  }
  if (config.default === undefined) return legacy;
  if (!isPlainObject(config.default)) {
    errors.push('default config should be a hash');
    return legacy;
  }
  const unknown = Object.keys(config.default).filter((key) => !DEFAULT_KEYS.includes(key));
  if (unknown.length > 0) errors.push(`default config contains unknown keys: ${unknown.join(', ')}`);
  return { ...legacy, ...config.default };
}

/** The checks GitLab's YamlProcessor makes once every entry is valid; the first failure only. */
function logicalError(jobs: Map<string, JobDefinition>, stages: string[]): string | null {
  for (const job of jobs.values()) {
    if (!stages.includes(job.stage)) {
      return `${job.name} job: chosen stage ${job.stage} does not exist; available stages are ${stages.join(', ')}`;
    }
  }
  const needsError = validateNeedsAndDependencies(jobs, stages);
  if (needsError) return needsError;
  for (const job of jobs.values()) {
    const onStop = job.environment?.on_stop;
    if (onStop === undefined) continue;
    const target = jobs.get(String(onStop));
    if (!target) return `${job.name} job: on_stop job ${String(onStop)} is not defined`;
    if (!target.environment) return `${job.name} job: on_stop job ${String(onStop)} does not have environment defined`;
    if (target.environment.name !== job.environment!.name) return `${job.name} job: on_stop job ${String(onStop)} have different environment name`;
    if (target.environment.action !== 'stop') return `${job.name} job: on_stop job ${String(onStop)} needs to have action stop defined`;
  }
  return null;
}

function inheritVariables(globals: Record<string, string>, inherit: boolean | string[]): Record<string, string> {
  if (inherit === true) return globals;
  if (inherit === false) return {};
  return Object.fromEntries(Object.entries(globals).filter(([key]) => inherit.includes(key)));
}

interface Decision {
  definition: JobDefinition;
  when: JobWhen;
  startIn?: string;
  allowFailure: boolean;
  variables: Record<string, string>;
  interruptible?: boolean;
  error?: string;
}

/**
 * Whether the job joins the pipeline, and its `when`/`allow_failure` then. With `rules`, the
 * matching rule's `when` (default: the job's) wins, a rule's `when: manual` is blocking unless the
 * rule allows failure, and no matching rule (or `when: never`) leaves the job out. Without rules,
 * only/except decide and a `when: manual` job may fail by default.
 */
function decide(definition: JobDefinition, context: PipelineContext, visible: Record<string, string>): Decision | null {
  if (definition.rules) {
    const rule = firstMatchingRule(definition.rules, context, visible);
    if (!rule || rule.when === 'never') return null;
    const when = (rule.when ?? definition.when) as JobWhen;
    if (when === 'delayed') {
      const startErrors: string[] = [];
      checkStartIn(rule.startIn, `jobs:${definition.name}:rules:rule`, startErrors);
      if (startErrors.length > 0) return { definition, when, allowFailure: false, variables: {}, error: startErrors[0] };
    }
    const ruleAllows = typeof rule.allowFailure === 'boolean' ? rule.allowFailure : undefined;
    const allowFailure = ruleAllows ?? definition.allowFailure ?? (rule.when === undefined && when === 'manual');
    const variables = Object.fromEntries(Object.entries(rule.variables ?? {}).map(([k, v]) => [k, String(v)]));
    let target = definition;
    if (rule.needs !== undefined) {
      // A rule's `needs` replaces the job's.
      const needs = Array.isArray(rule.needs) ? rule.needs : [rule.needs];
      target = {
        ...definition,
        needs: {
          jobs: needs.map((need) =>
            typeof need === 'string'
              ? { name: need, artifacts: true, optional: false }
              : { name: String((need as Record<string, unknown>).job), artifacts: (need as Record<string, unknown>).artifacts !== false, optional: (need as Record<string, unknown>).optional === true },
          ),
          cross: [],
        },
      };
    }
    return { definition: target, when, startIn: rule.startIn, allowFailure, variables, interruptible: rule.interruptible };
  }
  if (!onlyExceptIncludes(definition.only, definition.except, context, visible)) return null;
  const when = definition.when as JobWhen;
  return {
    definition,
    when,
    startIn: definition.startIn,
    allowFailure: definition.allowFailure ?? when === 'manual',
    variables: {},
  };
}

/**
 * The job's environment with its name and url expanded (GitLab expands both with the job's
 * variables; the url also sees CI_ENVIRONMENT_NAME and CI_ENVIRONMENT_SLUG).
 */
function expandEnvironment(environment: Record<string, unknown>, expansion: Record<string, string>): Record<string, unknown> {
  const name = expandVariables(String(environment.name), expansion);
  if (typeof environment.url !== 'string') return { ...environment, name };
  const url = expandVariables(environment.url, { ...expansion, CI_ENVIRONMENT_NAME: name, CI_ENVIRONMENT_SLUG: environmentSlug(name) });
  return { ...environment, name, url };
}

function plannedJob(
  decision: Decision,
  instance: ReturnType<typeof expandParallel>[number],
  variables: Record<string, string>,
  stages: string[],
  context: PipelineContext,
): PlannedJob {
  const definition = decision.definition;
  const expansion = { ...variables, ...context.variables };
  const environment = definition.environment ? expandEnvironment(definition.environment, expansion) : undefined;
  const job: PlannedJob = {
    name: instance.name,
    stage: definition.stage,
    stageIdx: stages.indexOf(definition.stage),
    kind: definition.kind,
    when: decision.when,
    ...(decision.when === 'delayed' && decision.startIn ? { startIn: decision.startIn } : {}),
    allowFailure: decision.allowFailure,
    ...(definition.allowFailureExitCodes ? { allowFailureExitCodes: definition.allowFailureExitCodes } : {}),
    needs: null,
    ...(definition.dependencies ? { dependencies: [...definition.dependencies] } : {}),
    yamlVariables: Object.entries(variables).map(([key, value]) => ({ key, value })),
    options: {
      ...(definition.script ? { script: definition.script } : {}),
      ...(definition.beforeScript ? { beforeScript: definition.beforeScript } : {}),
      ...(definition.afterScript ? { afterScript: definition.afterScript } : {}),
      ...(definition.image ? { image: definition.image } : {}),
      ...(definition.services ? { services: definition.services } : {}),
      ...(definition.artifacts ? { artifacts: definition.artifacts } : {}),
      ...(definition.cache !== undefined ? { cache: definition.cache } : {}),
      ...(environment ? { environment } : {}),
      ...(definition.retry ? { retry: definition.retry } : {}),
      ...(definition.timeoutSeconds !== undefined ? { timeoutSeconds: definition.timeoutSeconds } : {}),
      ...(instance.parallel ? { parallel: instance.parallel } : {}),
      ...(definition.trigger ? { trigger: definition.trigger } : {}),
      ...(definition.resourceGroup ? { resourceGroup: definition.resourceGroup } : {}),
      ...definition.extra,
    },
    tags: definition.tags,
    ...(definition.coverage !== undefined ? { coverageRegex: definition.coverage } : {}),
    ...((decision.interruptible ?? definition.interruptible) !== undefined ? { interruptible: decision.interruptible ?? definition.interruptible } : {}),
    ...(definition.resourceGroup ? { resourceGroupKey: expandVariables(definition.resourceGroup, expansion) } : {}),
    ...(environment ? { environmentName: String(environment.name) } : {}),
  };
  if (definition.needs) job.needs = [];
  return job;
}

/**
 * `needs:` entries naming another pipeline or project, as GitLab stores them for the job
 * (options[:cross_dependencies]): `{job, pipeline | project, ref, artifacts}` with `artifacts`
 * true unless set to false. The pipeline id (`$PARENT_PIPELINE_ID`) is expanded when the job runs.
 */
export function crossDependencies(cross: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return cross.map((need) => ({
    job: typeof need.job === 'string' ? need.job : null,
    ...(need.pipeline !== undefined ? { pipeline: String(need.pipeline) } : {}),
    ...(need.project !== undefined ? { project: String(need.project) } : {}),
    ...(need.ref !== undefined ? { ref: String(need.ref) } : {}),
    artifacts: need.artifacts !== false,
  }));
}
