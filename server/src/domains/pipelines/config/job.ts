/**
 * One job of the configuration, validated and put in normal form before rules are evaluated,
 * as GitLab's Entry::Job and Entry::Bridge: allowed keys, `default:` inheritance (and
 * `inherit:`), `when`, `start_in`, `allow_failure`, scripts, `trigger` jobs (bridges) …
 */
import { parseDuration } from './duration.js';
import {
  normalizeAllowFailure, normalizeArtifacts, normalizeCoverage, normalizeEnvironment, normalizeImage,
  normalizeNeeds, normalizeRetry, normalizeScript, normalizeServices, normalizeStringArray, normalizeVariables,
  type Errors, type NeedEntry,
} from './job-attributes.js';
import { MAX_START_IN_SECONDS } from './limits.js';
import { normalizeParallel, type ParallelConfig } from './matrix.js';
import { validatePolicy, validateRules } from './rules.js';
import { isPlainObject } from './yaml-loader.js';

const PROCESSABLE_KEYS = [
  'extends', 'stage', 'only', 'except', 'rules', 'variables', 'inherit', 'needs', 'resource_group', 'when',
  'allow_failure', 'environment', 'interruptible', 'manual_confirmation',
];
const BUILD_KEYS = [
  'tags', 'script', 'run', 'type', 'image', 'services', 'start_in', 'artifacts', 'cache', 'dependencies',
  'before_script', 'after_script', 'hooks', 'coverage', 'retry', 'parallel', 'timeout', 'release', 'secrets',
  'id_tokens', 'identity', 'pages', 'publish', 'dast_configuration',
];
const BRIDGE_KEYS = ['trigger', 'parallel', 'start_in'];
const JOB_WHEN = ['on_success', 'on_failure', 'always', 'manual', 'delayed'];

/** Keys of `default:` (and the legacy top-level globals a job inherits). */
export const DEFAULT_KEYS = [
  'after_script', 'artifacts', 'before_script', 'cache', 'hooks', 'id_tokens', 'image', 'interruptible', 'retry',
  'services', 'tags', 'timeout',
];

export interface JobDefinition {
  name: string;
  kind: 'build' | 'bridge';
  stage: string;
  when: string;
  whenDefined: boolean;
  startIn?: string;
  allowFailure?: boolean;
  allowFailureExitCodes?: number[];
  rules?: unknown[];
  only?: unknown;
  except?: unknown;
  needs?: { jobs: NeedEntry[]; cross: Record<string, unknown>[] };
  dependencies?: string[];
  variables: Record<string, string>;
  inheritVariables: boolean | string[];
  parallel?: ParallelConfig;
  tags: string[];
  script?: string[];
  beforeScript?: string[];
  afterScript?: string[];
  image?: Record<string, unknown>;
  services?: Record<string, unknown>[];
  artifacts?: Record<string, unknown>;
  cache?: unknown;
  environment?: Record<string, unknown>;
  retry?: { max: number; when: string[]; exitCodes?: number[] };
  timeoutSeconds?: number;
  coverage?: string;
  interruptible?: boolean;
  resourceGroup?: string;
  trigger?: Record<string, unknown>;
  extra: Record<string, unknown>;
}

/** `inherit: default:` / `inherit: variables:`: true, false, or the list of names to inherit. */
function inheritSetting(inherit: unknown, key: 'default' | 'variables'): boolean | string[] {
  if (!isPlainObject(inherit) || inherit[key] === undefined) return true;
  const value = inherit[key];
  return Array.isArray(value) ? value.map(String) : value !== false;
}

export function normalizeJob(
  name: string,
  raw: unknown,
  defaults: Record<string, unknown>,
  errors: Errors,
): JobDefinition | undefined {
  const at = `jobs:${name}`;
  // GitLab's Entry::Jobs: an entry that is neither a job (script/run) nor a bridge (trigger).
  const kind = isPlainObject(raw) && raw.trigger !== undefined ? 'bridge' : 'build';
  if (!isPlainObject(raw) || (kind === 'build' && raw.script === undefined && raw.run === undefined)) {
    errors.push(`${at} config should implement the script:, run:, or trigger: keyword`);
    return undefined;
  }
  const allowed = [...PROCESSABLE_KEYS, ...(kind === 'bridge' ? BRIDGE_KEYS : BUILD_KEYS)];
  const unknown = Object.keys(raw).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) errors.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);

  const inheritDefault = inheritSetting(raw.inherit, 'default');
  const inherited = (key: string) =>
    raw[key] !== undefined
      ? raw[key]
      : inheritDefault === true || (Array.isArray(inheritDefault) && inheritDefault.includes(key))
        ? defaults[key]
        : undefined;

  const hasRules = raw.rules !== undefined;
  if (hasRules) {
    if (raw.only !== undefined || raw.except !== undefined) {
      errors.push(`${at} config key may not be used with \`rules\`: ${['only', 'except'].filter((k) => raw[k] !== undefined).join(', ')}`);
    }
    errors.push(...validateRules(raw.rules, `${at}:rules`));
  }
  errors.push(...validatePolicy(raw.only, `${at}:only`), ...validatePolicy(raw.except, `${at}:except`));
  if (name.length > 255) errors.push(`${at} name is too long (maximum is 255 characters)`);
  const when = raw.when === undefined ? 'on_success' : String(raw.when);
  if (!JOB_WHEN.includes(when)) errors.push(`${at} when should be one of: ${JOB_WHEN.join(', ')}`);
  if (raw.start_in !== undefined) {
    if (hasRules) errors.push(`${at} config key may not be used with \`rules\`: start_in`);
    else if (when !== 'delayed') errors.push(`${at} start in should be blank`);
  }
  if (when === 'delayed' && !hasRules) checkStartIn(raw.start_in, at, errors);
  if (raw.stage !== undefined && typeof raw.stage !== 'string') errors.push(`${at} stage should be a string`);

  const allowFailure = normalizeAllowFailure(raw.allow_failure, at, errors);
  const variables = normalizeVariables(raw.variables, `${at} `, errors) ?? {};
  const timeout = inherited('timeout');
  const timeoutSeconds = timeout === undefined ? undefined : parseDuration(timeout);
  if (timeout !== undefined && timeoutSeconds === null) errors.push(`${at} timeout should be a duration`);
  const interruptible = inherited('interruptible');
  if (interruptible !== undefined && typeof interruptible !== 'boolean') errors.push(`${at} interruptible config should be a boolean value`);
  if (raw.resource_group !== undefined && typeof raw.resource_group !== 'string') errors.push(`${at} resource group should be a string`);
  if (raw.manual_confirmation !== undefined && typeof raw.manual_confirmation !== 'string') errors.push(`${at} manual confirmation should be a string`);
  const tags = inherited('tags');

  const job: JobDefinition = {
    name,
    kind,
    stage: typeof raw.stage === 'string' ? raw.stage : typeof raw.type === 'string' ? raw.type : 'test',
    when,
    whenDefined: raw.when !== undefined,
    startIn: raw.start_in === undefined ? undefined : String(raw.start_in),
    allowFailure: allowFailure?.allowFailure,
    allowFailureExitCodes: allowFailure?.exitCodes,
    rules: hasRules && Array.isArray(raw.rules) ? raw.rules : undefined,
    only: raw.only,
    except: raw.except,
    needs: raw.needs === undefined ? undefined : normalizeNeeds(raw.needs, at, errors),
    dependencies: raw.dependencies === undefined ? undefined : normalizeStringArray(raw.dependencies, at, 'dependencies', errors),
    variables,
    inheritVariables: inheritSetting(raw.inherit, 'variables'),
    parallel: normalizeParallel(raw.parallel, at, errors),
    tags: tags === undefined ? [] : (normalizeStringArray(tags, at, 'tags', errors) ?? []),
    timeoutSeconds: timeoutSeconds ?? undefined,
    interruptible: typeof interruptible === 'boolean' ? interruptible : undefined,
    resourceGroup: typeof raw.resource_group === 'string' ? raw.resource_group : undefined,
    environment: normalizeEnvironment(raw.environment, at, errors),
    extra: {},
  };
  if (kind === 'build') {
    job.script = normalizeScript(raw.script ?? [], at, 'script', errors);
    if (raw.script !== undefined && job.script?.length === 0) errors.push(`${at} script can't be blank`);
    const before = inherited('before_script');
    if (before !== undefined) job.beforeScript = normalizeScript(before, at, 'before_script', errors);
    const after = inherited('after_script');
    if (after !== undefined) job.afterScript = normalizeScript(after, at, 'after_script', errors);
    job.image = normalizeImage(inherited('image'), at, errors);
    job.services = normalizeServices(inherited('services'), at, errors);
    job.artifacts = normalizeArtifacts(inherited('artifacts'), at, errors);
    job.cache = inherited('cache');
    job.retry = normalizeRetry(inherited('retry'), at, errors);
    job.coverage = normalizeCoverage(raw.coverage, at, errors);
    for (const key of ['run', 'hooks', 'id_tokens', 'secrets', 'release', 'pages', 'publish', 'identity', 'manual_confirmation']) {
      if (raw[key] !== undefined) job.extra[key] = raw[key];
    }
  } else {
    job.trigger = normalizeTrigger(raw.trigger, at, errors);
  }
  return job;
}

function checkStartIn(value: unknown, at: string, errors: Errors) {
  const seconds = parseDuration(value);
  if (seconds === null) errors.push(`${at} start in should be a duration`);
  else if (seconds > MAX_START_IN_SECONDS) errors.push(`${at} start in should not exceed the limit`);
}

export { checkStartIn };

/**
 * `trigger: group/project` or `{project, branch, strategy, forward}` (a downstream pipeline of
 * another project), or `{include: …}` (a child pipeline from files of this repository).
 */
function normalizeTrigger(value: unknown, at: string, errors: Errors): Record<string, unknown> | undefined {
  if (typeof value === 'string') return { project: value };
  if (!isPlainObject(value)) {
    errors.push(`${at} trigger config should be a hash or a string`);
    return undefined;
  }
  const keys = value.include !== undefined ? ['include', 'strategy', 'forward', 'inputs'] : ['project', 'branch', 'strategy', 'forward', 'inputs'];
  const unknown = Object.keys(value).filter((key) => !keys.includes(key));
  if (unknown.length > 0) errors.push(`${at}:trigger config contains unknown keys: ${unknown.join(', ')}`);
  if (value.include === undefined && typeof value.project !== 'string') errors.push(`${at}:trigger config project can't be blank`);
  if (value.strategy !== undefined && !['depend', 'mirror'].includes(String(value.strategy))) {
    errors.push(`${at}:trigger strategy should be depend or mirror`);
  }
  if (value.forward !== undefined) {
    // GitLab's Entry::Trigger::Forward: two booleans
    if (!isPlainObject(value.forward)) errors.push(`${at}:trigger:forward config should be a hash`);
    else {
      const unknownForward = Object.keys(value.forward).filter((key) => key !== 'yaml_variables' && key !== 'pipeline_variables');
      if (unknownForward.length > 0) errors.push(`${at}:trigger:forward config contains unknown keys: ${unknownForward.join(', ')}`);
      for (const key of ['yaml_variables', 'pipeline_variables']) {
        if (value.forward[key] !== undefined && typeof value.forward[key] !== 'boolean') errors.push(`${at}:trigger:forward ${key.replace('_', ' ')} should be a boolean value`);
      }
    }
  }
  if (value.include !== undefined) {
    const includes = ([] as unknown[]).concat(value.include);
    const valid = includes.every(
      (item) => typeof item === 'string' || (isPlainObject(item) && (typeof item.local === 'string' || typeof item.project === 'string' || typeof item.artifact === 'string')),
    );
    if (!valid || includes.length === 0 || includes.length > 3) {
      errors.push(`${at}:trigger:include config must be a hash or an array of up to 3 hashes`);
    }
  }
  return value;
}
