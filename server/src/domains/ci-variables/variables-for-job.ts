import type { CiVariable } from './ci-variable.js';

/** A variable as a runner receives it (the `variables` of GitLab's job payload). */
export interface JobVariable {
  key: string;
  value: string;
  public: boolean;
  masked: boolean;
  file: boolean;
  raw: boolean;
}

/** Pipeline and job variables (a manual job's, `POST /pipeline`'s `variables[]`): never protected or scoped. */
export interface RequestVariable {
  key: string;
  value: string;
  variable_type?: 'env_var' | 'file';
  raw?: boolean;
}

export type StoredVariable = Pick<CiVariable, 'key' | 'value' | 'variable_type' | 'protected' | 'masked' | 'raw' | 'environment_scope'>;

export interface JobVariableSources {
  project: readonly StoredVariable[];
  /** Each group's variables, from the top-level group down to the project's own group (nearest last). */
  groupAncestry: readonly (readonly StoredVariable[])[];
  instance: readonly StoredVariable[];
  /** Variables given to this pipeline or job; they win over every stored one. */
  pipeline?: readonly RequestVariable[];
  /** The pipeline runs for a protected branch or tag. */
  refProtected: boolean;
  /** The job's environment name, or null for a job without one. */
  environment: string | null;
  /** A merge request pipeline for a source branch in a fork. */
  fromFork: boolean;
}

/**
 * Does an environment scope take in this environment? `*` in a scope matches any characters
 * (slashes included), as GitLab's LIKE-based match; a job without an environment sees only `*`.
 */
export function scopeMatches(scope: string, environment: string | null): boolean {
  if (scope === '*') return true;
  if (environment === null) return false;
  if (scope === environment) return true;
  if (!scope.includes('*')) return false;
  const pattern = scope.split('*').map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`, 's').test(environment);
}

/** GitLab's relevance order within one owner: `*` first, then wildcard scopes, the exact name last (it wins). */
function relevance(scope: string, environment: string | null): number {
  if (scope === '*') return 0;
  return scope === environment ? 2 : 1;
}

function visible(variables: readonly StoredVariable[], sources: JobVariableSources): StoredVariable[] {
  // Protected variables reach protected refs only, and never a fork's merge request pipeline.
  const protectedAllowed = sources.refProtected && !sources.fromFork;
  return variables
    .map((variable, index) => ({ variable, index }))
    .filter(({ variable }) => (protectedAllowed || !variable.protected) && scopeMatches(variable.environment_scope, sources.environment))
    .sort((a, b) => relevance(a.variable.environment_scope, sources.environment) - relevance(b.variable.environment_scope, sources.environment) || a.index - b.index)
    .map(({ variable }) => variable);
}

const fromStored = (variable: StoredVariable): JobVariable => ({
  key: variable.key,
  value: variable.value,
  public: false,
  masked: variable.masked,
  file: variable.variable_type === 'file',
  raw: variable.raw,
});

/**
 * The CI/CD variables a job receives, by GitLab's precedence: instance, then groups from the top
 * down (the nearest group wins), then the project, then the pipeline's and job's own variables.
 * Of several definitions of one key the later wins; the list holds each key once, where its
 * winning definition stands. Pure: the pipelines engine loads the sources and calls this.
 */
export function variablesForJob(sources: JobVariableSources): JobVariable[] {
  const ordered: JobVariable[] = [
    ...visible(sources.instance, { ...sources, environment: null }).map(fromStored),
    ...sources.groupAncestry.flatMap((group) => visible(group, sources).map(fromStored)),
    ...visible(sources.project, sources).map(fromStored),
    ...(sources.pipeline ?? []).map((variable) => ({
      key: variable.key,
      value: variable.value,
      public: false,
      masked: false,
      file: variable.variable_type === 'file',
      raw: variable.raw ?? false,
    })),
  ];
  const byKey = new Map<string, JobVariable>();
  for (const variable of ordered) {
    byKey.delete(variable.key);
    byKey.set(variable.key, variable);
  }
  return [...byKey.values()];
}

/** The values a job's log must hide: those of its masked variables. */
export function maskedValues(variables: readonly JobVariable[]): string[] {
  return variables.filter((variable) => variable.masked && variable.value !== '').map((variable) => variable.value);
}
