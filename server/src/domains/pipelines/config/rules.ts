/**
 * `rules`, `workflow:rules`, `include:rules` and the legacy `only`/`except`, as GitLab's
 * Gitlab::Ci::Build::Rules and Gitlab::Ci::Build::Policy evaluate them at pipeline creation.
 * Pure: the caller passes the pipeline's context and the variables visible to the job.
 */
import { evaluateExpression, compilePattern, isValidExpression } from './expression.js';
import { anyPathMatches, globToRegex } from './glob.js';
import { expandVariables } from './merge.js';
import { MAX_RULE_PATTERNS } from './limits.js';
import type { PipelineContext } from './types.js';
import { isPlainObject } from './yaml-loader.js';

export const RULE_KEYS = ['if', 'changes', 'exists', 'when', 'start_in', 'allow_failure', 'variables', 'needs', 'interruptible'];
const RULE_WHEN = ['on_success', 'on_failure', 'always', 'never', 'manual', 'delayed'];
const WORKFLOW_RULE_WHEN = ['always', 'never'];

export interface MatchedRule {
  when?: string;
  startIn?: string;
  allowFailure?: unknown;
  variables?: Record<string, unknown>;
  needs?: unknown;
  interruptible?: boolean;
}

/** The validation errors of a `rules:` value, each prefixed with its location as GitLab writes it. */
export function validateRules(rules: unknown, location: string, workflow = false): string[] {
  if (!Array.isArray(rules)) return [`${location} config should be an array of hashes`];
  const errors: string[] = [];
  for (const rule of rules) {
    const at = `${location}:rule`;
    if (!isPlainObject(rule)) {
      errors.push(`${at} config should be a hash`);
      continue;
    }
    const allowed = workflow ? ['if', 'changes', 'exists', 'when', 'variables', 'auto_cancel'] : RULE_KEYS;
    const unknown = Object.keys(rule).filter((key) => !allowed.includes(key));
    if (unknown.length > 0) errors.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);
    if (rule.if !== undefined && (typeof rule.if !== 'string' || !isValidExpression(rule.if))) {
      errors.push(`${at} if invalid expression syntax`);
    }
    if (rule.when !== undefined && !(workflow ? WORKFLOW_RULE_WHEN : RULE_WHEN).includes(String(rule.when))) {
      errors.push(`${at} when unknown value: ${String(rule.when)}`);
    }
    if (rule.start_in !== undefined && rule.when !== 'delayed') errors.push(`${at} start_in should be blank`);
    if (rule.when === 'delayed' && rule.start_in === undefined) errors.push(`${at} start_in should be a duration`);
    for (const key of ['changes', 'exists'] as const) {
      const patterns = rulePatterns(rule[key]);
      if (rule[key] !== undefined && patterns === null) errors.push(`${at} ${key} should be an array of strings`);
      else if (patterns && patterns.length > MAX_RULE_PATTERNS) {
        errors.push(`${at} ${key} has too many entries (maximum ${MAX_RULE_PATTERNS})`);
      }
    }
    if (rule.allow_failure !== undefined && typeof rule.allow_failure !== 'boolean') {
      errors.push(`${at} allow_failure should be a boolean value`);
    }
  }
  return errors;
}

/** `changes: [..]`, `changes: {paths: [..]}`, `exists: [..]` or `exists: {paths: [..]}` as a list, or null. */
function rulePatterns(value: unknown): string[] | null {
  const list = isPlainObject(value) ? value.paths : typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) return null;
  return list as string[];
}

/** True when every clause of the rule (`if`, `changes`, `exists`) holds; a rule without clauses matches. */
export function ruleClausesHold(
  rule: Record<string, unknown>,
  context: PipelineContext,
  variables: Readonly<Record<string, string>>,
): boolean {
  if (typeof rule.if === 'string' && !evaluateExpression(rule.if, variables)) return false;
  if (rule.changes !== undefined && !changesSatisfied(rule.changes, context, variables)) return false;
  if (rule.exists !== undefined) {
    const patterns = (rulePatterns(rule.exists) ?? []).map((pattern) => expandVariables(pattern, variables));
    if (!existsSatisfied(patterns, context.existingPaths)) return false;
  }
  return true;
}

/** GitLab's Rules::Rule::Clause::Exists::MAX_PATTERN_COMPARISONS. */
export const MAX_EXISTS_COMPARISONS = 50_000;

/**
 * `rules:exists` as GitLab evaluates it: a plain path is looked up directly; glob patterns are
 * compared with the repository's paths, and after 50,000 comparisons the clause is true (GitLab's
 * documented cut-off), so a large repository cannot make pipeline creation slow.
 */
export function existsSatisfied(patterns: readonly string[], paths: readonly string[]): boolean {
  const plain = patterns.filter((pattern) => !/[*?[{]/.test(pattern));
  if (plain.length > 0) {
    const set = new Set(paths);
    if (plain.some((path) => set.has(path.replace(/^\/+/, '')))) return true;
  }
  const globs = patterns.filter((pattern) => /[*?[{]/.test(pattern)).map(globToRegex);
  let comparisons = 0;
  for (const regex of globs) {
    if (!regex) continue;
    for (const path of paths) {
      if (++comparisons > MAX_EXISTS_COMPARISONS) return true;
      if (regex.matches(path)) return true;
    }
  }
  return false;
}

/**
 * `changes` holds when a pushed or merge request path matches; GitLab treats it as true when the
 * pipeline has no list of changed paths (a new branch, a tag, a schedule, a web or API pipeline).
 */
export function changesSatisfied(value: unknown, context: PipelineContext, variables: Readonly<Record<string, string>>) {
  if (context.changedPaths === undefined) return true;
  const patterns = (rulePatterns(value) ?? []).map((pattern) => expandVariables(pattern, variables));
  return anyPathMatches(patterns, context.changedPaths);
}

/** The first rule whose clauses hold, or null (the job is not added, the pipeline is filtered). */
export function firstMatchingRule(
  rules: readonly unknown[],
  context: PipelineContext,
  variables: Readonly<Record<string, string>>,
): MatchedRule | null {
  for (const rule of rules) {
    if (!isPlainObject(rule) || !ruleClausesHold(rule, context, variables)) continue;
    return {
      when: typeof rule.when === 'string' ? rule.when : undefined,
      startIn: typeof rule.start_in === 'string' || typeof rule.start_in === 'number' ? String(rule.start_in) : undefined,
      allowFailure: rule.allow_failure,
      variables: isPlainObject(rule.variables) ? rule.variables : undefined,
      needs: rule.needs,
      interruptible: typeof rule.interruptible === 'boolean' ? rule.interruptible : undefined,
    };
  }
  return null;
}

const REF_KEYWORDS: Record<string, (context: PipelineContext) => boolean> = {
  branches: (c) => !c.tag && c.source !== 'merge_request_event',
  tags: (c) => c.tag,
  api: (c) => c.source === 'api',
  external: (c) => c.source === 'external',
  pipelines: (c) => c.source === 'pipeline' || c.source === 'parent_pipeline',
  pushes: (c) => c.source === 'push',
  schedules: (c) => c.source === 'schedule',
  triggers: (c) => c.source === 'trigger',
  web: (c) => c.source === 'web',
  chat: (c) => c.source === 'chat',
  merge_requests: (c) => c.source === 'merge_request_event',
  external_pull_requests: () => false,
};

/** One `only:refs`/`except:refs` entry: a keyword, a ref name, or `/regex/`, optionally `@project/path`. */
export function refPatternMatches(entry: string, context: PipelineContext): boolean {
  let pattern = entry;
  const at = entry.lastIndexOf('@');
  if (at > 0 && !entry.endsWith('/')) {
    const projectPath = entry.slice(at + 1);
    if (projectPath.toLowerCase() !== context.projectPath.toLowerCase()) return false;
    pattern = entry.slice(0, at);
  }
  if (Object.prototype.hasOwnProperty.call(REF_KEYWORDS, pattern)) return REF_KEYWORDS[pattern]!(context);
  if (pattern.startsWith('/')) {
    const regex = compilePattern(pattern);
    return regex ? regex.matcher(context.ref).find() : false;
  }
  return pattern === context.ref;
}

/**
 * The policy of `only` or `except` normalised to its parts; a list means `refs`. As GitLab's
 * Entry::Policy, `only` is deep-merged over the default `{refs: [branches, tags]}`, so
 * `only: {variables: …}` still runs on branches and tags only.
 */
export function normalizePolicy(value: unknown, key: 'only' | 'except'): { refs?: string[]; variables?: string[]; changes?: string[] } | null {
  const defaultRefs = key === 'only' ? ['branches', 'tags'] : undefined;
  if (value === undefined || value === null) return defaultRefs ? { refs: defaultRefs } : null;
  if (Array.isArray(value)) return { refs: value.map(String) };
  if (!isPlainObject(value)) return null;
  const list = (v: unknown) => (v === undefined ? undefined : ([] as unknown[]).concat(v).map(String));
  return { refs: list(value.refs) ?? defaultRefs, variables: list(value.variables), changes: list(value.changes) };
}

const isStringOrPattern = (item: unknown) => typeof item === 'string' && (!item.startsWith('/') || compilePattern(item.replace(/@[^/@]*\/[^@]*$/, '')) !== null);

/** GitLab's Entry::Policy validation of `only` / `except`. */
export function validatePolicy(value: unknown, location: string): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.every(isStringOrPattern) ? [] : [`${location} config should be an array of strings or regexps`];
  if (!isPlainObject(value)) return [`${location} has to be either an array of conditions or a hash`];
  const errors: string[] = [];
  const unknown = Object.keys(value).filter((key) => !['refs', 'kubernetes', 'variables', 'changes'].includes(key));
  if (unknown.length > 0) errors.push(`${location} config contains unknown keys: ${unknown.join(', ')}`);
  if (value.refs !== undefined && !(Array.isArray(value.refs) && value.refs.every(isStringOrPattern))) {
    errors.push(`${location} refs should be an array of strings or regexps`);
  }
  if (value.kubernetes !== undefined && value.kubernetes !== 'active') errors.push(`${location} kubernetes unknown value: ${String(value.kubernetes)}`);
  for (const key of ['variables', 'changes'] as const) {
    const item = value[key];
    if (item !== undefined && !(Array.isArray(item) && item.every((entry) => typeof entry === 'string'))) {
      errors.push(`${location} ${key} should be an array of strings`);
    }
  }
  if (Array.isArray(value.variables) && value.variables.some((entry) => typeof entry === 'string' && !isValidExpression(entry))) {
    errors.push(`${location} variables Invalid expression syntax`);
  }
  return errors;
}

function policyParts(policy: ReturnType<typeof normalizePolicy>, context: PipelineContext, variables: Readonly<Record<string, string>>) {
  const parts: boolean[] = [];
  if (!policy) return parts;
  if (policy.refs) parts.push(policy.refs.some((entry) => refPatternMatches(entry, context)));
  if (policy.variables) parts.push(policy.variables.some((expression) => safeEvaluate(expression, variables)));
  if (policy.changes) parts.push(changesSatisfied(policy.changes, context, variables));
  return parts;
}

function safeEvaluate(expression: string, variables: Readonly<Record<string, string>>): boolean {
  try {
    return evaluateExpression(expression, variables);
  } catch {
    return false;
  }
}

/**
 * `only` and `except`: included when every part of `only` holds and no part of `except` does.
 * A job with none of `only`, `except` and `rules` is `only: [branches, tags]` (so never in a merge
 * request pipeline), as GitLab's default.
 */
export function onlyExceptIncludes(
  only: unknown,
  except: unknown,
  context: PipelineContext,
  variables: Readonly<Record<string, string>>,
): boolean {
  if (!policyParts(normalizePolicy(only, 'only'), context, variables).every(Boolean)) return false;
  return !policyParts(normalizePolicy(except, 'except'), context, variables).some(Boolean);
}
