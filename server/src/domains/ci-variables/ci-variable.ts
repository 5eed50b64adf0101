/** Where a CI/CD variable is defined: a project, a group, or the whole instance. */
export type VariableOwner = { kind: 'project'; id: number } | { kind: 'group'; id: number } | { kind: 'instance' };

export const VARIABLE_TYPES = ['env_var', 'file'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** One stored variable (GitLab's Ci::Variable, Ci::GroupVariable, Ci::InstanceVariable). */
export interface CiVariable {
  id: number;
  project_id: number | null;
  group_id: number | null;
  key: string;
  value: string;
  variable_type: VariableType;
  protected: boolean;
  masked: boolean;
  /** masked and never shown again, not even to Maintainers (GitLab's masked_and_hidden) */
  hidden: boolean;
  /** true: `$OTHER` in the value is not expanded */
  raw: boolean;
  /** `*`, an environment name, or a name with `*` wildcards; always `*` for instance variables */
  environment_scope: string;
  description: string | null;
}

/** The attributes a create or update sets; undefined leaves a field as it is. */
export interface VariableAttributes {
  key?: string;
  value?: string;
  variable_type?: VariableType;
  protected?: boolean;
  masked?: boolean;
  hidden?: boolean;
  raw?: boolean;
  environment_scope?: string;
  description?: string | null;
}
