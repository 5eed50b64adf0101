/**
 * Validation and normal form of one job attribute each (`script`, `retry`, `artifacts`,
 * `environment`, `image`, `services`, `needs`, `allow_failure`, `variables`), with GitLab's
 * messages (Gitlab::Ci::Config::Entry::*). Each pushes its errors, prefixed with the entry's
 * location (`jobs:build`), and answers the normalised value.
 */
import { compilePattern } from './expression.js';
import { parseDuration } from './duration.js';
import { setOwn } from './merge.js';
import { isPlainObject } from './yaml-loader.js';

export type Errors = string[];

const MAX_SCRIPT_NESTING = 10;

/** `script`, `before_script`, `after_script`: a string or nested lists of strings, flattened. */
export function normalizeScript(value: unknown, at: string, key: string, errors: Errors): string[] | undefined {
  const out: string[] = [];
  const walk = (item: unknown, depth: number): boolean => {
    if (typeof item === 'string') return out.push(item) > 0;
    if (typeof item === 'number' || typeof item === 'boolean') return out.push(String(item)) > 0;
    if (Array.isArray(item) && depth < MAX_SCRIPT_NESTING) return item.every((child) => walk(child, depth + 1));
    return false;
  };
  if (!walk(value, 0)) {
    errors.push(`${at} ${key} config should be a string or a nested array of strings up to 10 levels deep`);
    return undefined;
  }
  return out;
}

export function normalizeStringArray(value: unknown, at: string, key: string, errors: Errors): string[] | undefined {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    errors.push(`${at} ${key} should be an array of strings`);
    return undefined;
  }
  return value as string[];
}

/** `variables:` values are strings, numbers or `{value, description, expand, options}`. */
export function normalizeVariables(value: unknown, at: string, errors: Errors): Record<string, string> | undefined {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) {
    errors.push(`${at}variables config should be a hash of key value pairs, value can be a hash`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') setOwn(out, key, String(item));
    else if (isPlainObject(item) && (item.value === undefined || ['string', 'number'].includes(typeof item.value))) {
      setOwn(out, key, item.value === undefined ? '' : String(item.value));
    } else {
      errors.push(`${at}variables config should be a hash of key value pairs, value can be a hash`);
      return undefined;
    }
  }
  return out;
}

const RETRY_WHEN = [
  'always', 'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure',
  'runner_unsupported', 'stale_schedule', 'job_execution_timeout', 'archived_failure', 'unmet_prerequisites',
  'scheduler_failure', 'data_integrity_failure',
];

export function normalizeRetry(value: unknown, at: string, errors: Errors) {
  if (value === undefined) return undefined;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 2) {
      errors.push(`${at}:retry config must be ${value < 0 ? 'greater than or equal to 0' : 'less than or equal to 2'}`);
      return undefined;
    }
    return { max: value, when: ['always'] };
  }
  if (!isPlainObject(value)) {
    errors.push(`${at}:retry config has to be either an integer or a hash`);
    return undefined;
  }
  const unknown = Object.keys(value).filter((key) => !['max', 'when', 'exit_codes'].includes(key));
  if (unknown.length > 0) errors.push(`${at}:retry config contains unknown keys: ${unknown.join(', ')}`);
  const max = value.max ?? 0;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 0 || max > 2) {
    errors.push(`${at}:retry max must be less than or equal to 2`);
  }
  const when = value.when === undefined ? ['always'] : ([] as unknown[]).concat(value.when).map(String);
  const bad = when.filter((item) => !RETRY_WHEN.includes(item));
  if (bad.length > 0) errors.push(`${at}:retry when contains unknown values: ${bad.join(', ')}`);
  const exitCodes = value.exit_codes === undefined ? undefined : ([] as unknown[]).concat(value.exit_codes);
  if (exitCodes && !exitCodes.every((code) => Number.isInteger(code))) {
    errors.push(`${at}:retry exit_codes should be an array of integers or an integer`);
  }
  return { max: Number(max), when, ...(exitCodes ? { exitCodes: exitCodes as number[] } : {}) };
}

/** `allow_failure: true|false` or `{exit_codes: 137 | [137, 255]}`. */
export function normalizeAllowFailure(value: unknown, at: string, errors: Errors) {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return { allowFailure: value };
  if (isPlainObject(value)) {
    const codes = ([] as unknown[]).concat(value.exit_codes ?? []);
    if (Object.keys(value).some((key) => key !== 'exit_codes') || codes.length === 0 || !codes.every((c) => Number.isInteger(c))) {
      errors.push(`${at}:allow_failure exit_codes should be an array of integers or an integer`);
      return undefined;
    }
    return { allowFailure: false, exitCodes: codes as number[] };
  }
  errors.push(`${at} allow_failure should be a hash or a boolean value`);
  return undefined;
}

const ARTIFACT_KEYS = ['name', 'untracked', 'paths', 'reports', 'when', 'expire_in', 'expose_as', 'exclude', 'public', 'access'];
const REPORT_KEYS = [
  'junit', 'coverage_report', 'codequality', 'sast', 'secret_detection', 'dependency_scanning', 'container_scanning',
  'dast', 'license_scanning', 'performance', 'browser_performance', 'load_performance', 'metrics', 'requirements',
  'terraform', 'accessibility', 'cyclonedx', 'dotenv', 'annotations', 'api_fuzzing', 'coverage_fuzzing',
  'cluster_image_scanning',
];

/** GitLab's `expose_as`: a word character, then letters, digits, '_', '-' and spaces. */
const EXPOSE_AS = /^\w[-\w ]*$/;
/** The longest `expose_as` GitLab accepts. */
export const EXPOSE_AS_MAX_LENGTH = 100;

/**
 * GitLab's rules for `artifacts:expose_as` (its Entry::Artifacts validations): the name is a
 * string of at most 100 characters matching EXPOSE_AS, and `paths` must be given and may not
 * hold a `*` (the merge request links one file or one directory per path, never a glob). Pure.
 */
export function exposeAsErrors(exposeAs: unknown, paths: unknown, where: string): string[] {
  const errors: string[] = [];
  if (paths === undefined || paths === null || (Array.isArray(paths) && paths.length === 0)) errors.push(`${where} paths can't be blank`);
  else if (Array.isArray(paths) && paths.some((path) => typeof path === 'string' && path.includes('*'))) errors.push(`${where} paths can't contain '*' when used with 'expose_as'`);
  if (typeof exposeAs !== 'string') {
    errors.push(`${where} expose as should be a string`);
    return errors;
  }
  if (exposeAs.length > EXPOSE_AS_MAX_LENGTH) errors.push(`${where} expose as is too long (maximum is ${EXPOSE_AS_MAX_LENGTH} characters)`);
  if (!EXPOSE_AS.test(exposeAs)) errors.push(`${where} expose as can contain only letters, digits, '-', '_' and spaces`);
  return errors;
}

export function normalizeArtifacts(value: unknown, at: string, errors: Errors): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  const where = `${at}:artifacts`;
  if (!isPlainObject(value)) {
    errors.push(`${where} config should be a hash`);
    return undefined;
  }
  const unknown = Object.keys(value).filter((key) => !ARTIFACT_KEYS.includes(key));
  if (unknown.length > 0) errors.push(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  const out: Record<string, unknown> = { ...value };
  for (const key of ['paths', 'exclude'] as const) {
    if (value[key] !== undefined) out[key] = normalizeStringArray(value[key], where, key, errors);
  }
  if (value.when !== undefined && !['on_success', 'on_failure', 'always'].includes(String(value.when))) {
    errors.push(`${where} when should be on_success, on_failure or always`);
  }
  if (value.expire_in !== undefined && value.expire_in !== 'never' && parseDuration(value.expire_in) === null) {
    errors.push(`${where} expire in should be a duration`);
  }
  if (value.expose_as !== undefined && value.expose_as !== null) exposeAsErrors(value.expose_as, value.paths, where).forEach((error) => errors.push(error));
  if (value.access !== undefined && !['all', 'developer', 'maintainer', 'none'].includes(String(value.access))) {
    errors.push(`${where} access should be one of: all, developer, maintainer, none`);
  }
  if (value.reports !== undefined) {
    if (!isPlainObject(value.reports)) errors.push(`${where}:reports config should be a hash`);
    else {
      const bad = Object.keys(value.reports).filter((key) => !REPORT_KEYS.includes(key));
      if (bad.length > 0) errors.push(`${where}:reports config contains unknown keys: ${bad.join(', ')}`);
      const coverage = value.reports.coverage_report;
      if (coverage !== undefined) {
        if (!isPlainObject(coverage) || !['cobertura', 'jacoco'].includes(String(coverage.coverage_format)) || typeof coverage.path !== 'string') {
          errors.push(`${where}:reports coverage report must contain a coverage_format (cobertura or jacoco) and a path`);
        }
      }
      if (value.reports.junit !== undefined) {
        const junit = ([] as unknown[]).concat(value.reports.junit);
        if (!junit.every((item) => typeof item === 'string')) errors.push(`${where}:reports junit should be an array of strings or a string`);
      }
    }
  }
  return out;
}

const ENVIRONMENT_KEYS = ['name', 'url', 'action', 'on_stop', 'auto_stop_in', 'kubernetes', 'deployment_tier'];
const ENVIRONMENT_ACTIONS = ['start', 'prepare', 'stop', 'verify', 'access'];
const DEPLOYMENT_TIERS = ['production', 'staging', 'testing', 'development', 'other'];

export function normalizeEnvironment(value: unknown, at: string, errors: Errors): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  const where = `${at}:environment`;
  const env: Record<string, unknown> = typeof value === 'string' ? { name: value } : isPlainObject(value) ? { ...value } : {};
  if (typeof value !== 'string' && !isPlainObject(value)) {
    errors.push(`${where} config should be a hash or a string`);
    return undefined;
  }
  const unknown = Object.keys(env).filter((key) => !ENVIRONMENT_KEYS.includes(key));
  if (unknown.length > 0) errors.push(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  if (typeof env.name !== 'string' || env.name.trim() === '') errors.push(`${where} name can't be blank`);
  else if (!/^[a-zA-Z0-9 \-_/${}.]+$/.test(env.name) || env.name.length > 255) {
    errors.push(`${where} name can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'`);
  }
  env.action ??= 'start';
  if (!ENVIRONMENT_ACTIONS.includes(String(env.action))) {
    errors.push(`${where} action should be start, stop, prepare, verify, or access`);
  }
  if (env.deployment_tier !== undefined && !DEPLOYMENT_TIERS.includes(String(env.deployment_tier))) {
    errors.push(`${where} deployment tier must be one of ${DEPLOYMENT_TIERS.join(', ')}`);
  }
  if (env.auto_stop_in !== undefined && env.auto_stop_in !== 'never' && parseDuration(env.auto_stop_in) === null) {
    errors.push(`${where} auto stop in should be a duration`);
  }
  if (env.url !== undefined && (typeof env.url !== 'string' || !/^https?:\/\/|^\$/.test(env.url))) {
    errors.push(`${where} url must be a valid url`);
  }
  return env;
}

/** `image: name` or `{name, entrypoint, pull_policy, docker}`. */
export function normalizeImage(value: unknown, at: string, errors: Errors): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return { name: value };
  if (isPlainObject(value) && typeof value.name === 'string') return value;
  errors.push(`${at}:image config should be a hash or a string`);
  return undefined;
}

export function normalizeServices(value: unknown, at: string, errors: Errors): Record<string, unknown>[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    errors.push(`${at}:services config should be a array`);
    return undefined;
  }
  const out: Record<string, unknown>[] = [];
  for (const item of value) {
    if (typeof item === 'string') out.push({ name: item });
    else if (isPlainObject(item) && typeof item.name === 'string') out.push(item);
    else errors.push(`${at}:services:service config should be a hash or a string`);
  }
  return out;
}

/** `coverage: '/regex/'`, checked by RE2 as GitLab's Gitlab::UntrustedRegexp. */
export function normalizeCoverage(value: unknown, at: string, errors: Errors): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !compilePattern(value)) {
    errors.push(`${at}:coverage config must be a regular expression with re2 syntax`);
    return undefined;
  }
  return value.slice(1, value.lastIndexOf('/'));
}

export interface NeedEntry {
  name: string;
  artifacts: boolean;
  optional: boolean;
  matrix?: Record<string, string>[];
}

/** `needs:` entries: job names, `{job, artifacts, optional, parallel: {matrix}}`, cross-project ones. */
export function normalizeNeeds(value: unknown, at: string, errors: Errors) {
  const jobs: NeedEntry[] = [];
  const cross: Record<string, unknown>[] = [];
  const list = Array.isArray(value) ? value : [value];
  for (const item of list) {
    if (typeof item === 'string') jobs.push({ name: item, artifacts: true, optional: false });
    else if (isPlainObject(item) && typeof item.job === 'string' && item.project === undefined && item.pipeline === undefined) {
      const matrix = isPlainObject(item.parallel) && Array.isArray(item.parallel.matrix) ? item.parallel.matrix : undefined;
      jobs.push({
        name: item.job,
        artifacts: item.artifacts !== false,
        optional: item.optional === true,
        ...(matrix ? { matrix: matrix.map((entry) => Object.fromEntries(Object.entries(entry as object).map(([k, v]) => [k, String(v)]))) } : {}),
      });
    } else if (isPlainObject(item) && item.project !== undefined) {
      errors.push(...crossProjectNeedErrors(item, `${at}:needs:need`));
      cross.push(item);
    } else if (isPlainObject(item) && item.pipeline !== undefined) cross.push(item);
    else errors.push(`${at}:needs config can only be a string or a hash`);
  }
  const crossProject = cross.filter((item) => item.project !== undefined).length;
  if (crossProject > MAX_CROSS_DEPENDENCIES || cross.length - crossProject > MAX_CROSS_DEPENDENCIES) {
    errors.push(`${at}:needs config must be less than or equal to ${MAX_CROSS_DEPENDENCIES}`);
  }
  return { jobs, cross };
}

/** GitLab's limit on `needs:project` entries of one job, and on its `needs:pipeline` entries. */
export const MAX_CROSS_DEPENDENCIES = 5;

const CROSS_PROJECT_NEED_KEYS = ['project', 'job', 'ref', 'artifacts'];

/**
 * `needs: [{project, job, ref, artifacts}]` as GitLab validates it (Need::CrossDependency):
 * only those keys; `project`, `job` and `ref` non-empty strings; `artifacts` a boolean.
 */
export function crossProjectNeedErrors(item: Record<string, unknown>, location: string): string[] {
  const errors: string[] = [];
  const unknown = Object.keys(item).filter((key) => !CROSS_PROJECT_NEED_KEYS.includes(key));
  if (unknown.length > 0) errors.push(`${location} config contains unknown keys: ${unknown.join(', ')}`);
  for (const key of ['project', 'job', 'ref'] as const) {
    const value = item[key];
    if (value !== undefined && value !== null && typeof value !== 'string') errors.push(`${location} ${key} should be a string`);
    else if (typeof value !== 'string' || value.trim() === '') errors.push(`${location} ${key} can't be blank`);
  }
  if (item.artifacts !== undefined && item.artifacts !== null && typeof item.artifacts !== 'boolean') errors.push(`${location} artifacts should be a boolean value`);
  return errors;
}
