/**
 * `workflow:` as GitLab's Entry::Workflow: `rules` decide whether the pipeline is created at all
 * (first matching rule; `when: never` or no match filters it out), the matching rule's `variables`
 * join the global ones, and `name` names the pipeline (variables expanded).
 */
import { expandVariables } from './merge.js';
import { firstMatchingRule, validateRules } from './rules.js';
import type { PipelineContext } from './types.js';
import { isPlainObject } from './yaml-loader.js';

export const FILTERED_BY_WORKFLOW = 'Pipeline filtered out by workflow rules.';

export function validateWorkflow(workflow: unknown): string[] {
  if (workflow === undefined) return [];
  if (!isPlainObject(workflow)) return ['workflow config should be a hash'];
  const errors: string[] = [];
  const unknown = Object.keys(workflow).filter((key) => !['rules', 'name', 'auto_cancel'].includes(key));
  if (unknown.length > 0) errors.push(`workflow config contains unknown keys: ${unknown.join(', ')}`);
  if (workflow.rules !== undefined) errors.push(...validateRules(workflow.rules, 'workflow:rules', true));
  if (workflow.name !== undefined && (typeof workflow.name !== 'string' || workflow.name.length > 255)) {
    errors.push('workflow name is too long (maximum is 255 characters)');
  }
  return errors;
}

export function evaluateWorkflow(
  workflow: unknown,
  context: PipelineContext,
  variables: Readonly<Record<string, string>>,
): { run: false } | { run: true; variables: Record<string, string>; name?: string } {
  const config = isPlainObject(workflow) ? workflow : {};
  let extra: Record<string, string> = {};
  if (Array.isArray(config.rules)) {
    const rule = firstMatchingRule(config.rules, context, variables);
    if (!rule || rule.when === 'never') return { run: false };
    extra = Object.fromEntries(Object.entries(rule.variables ?? {}).map(([k, v]) => [k, String(v)]));
  }
  const name = typeof config.name === 'string' ? expandVariables(config.name, { ...variables, ...extra }) : undefined;
  return { run: true, variables: extra, ...(name !== undefined ? { name } : {}) };
}
