import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/client';
import { encodeId } from '../../lib/api-client';

/**
 * The CI/CD Variables section's calls, GitLab's REST API v4: GET|POST /projects/:id/variables and
 * /groups/:id/variables, PUT|DELETE …/variables/:key?filter[environment_scope]=….
 */
export type VariableOwner = { kind: 'project'; id: number } | { kind: 'group'; id: number };

/** GitLab's Entities::Ci::Variable (a hidden variable's value is null). */
export interface CiVariable {
  variable_type: 'env_var' | 'file';
  key: string;
  value: string | null;
  hidden: boolean;
  protected: boolean;
  masked: boolean;
  raw: boolean;
  environment_scope: string;
  description: string | null;
}

export interface CiVariableInput {
  key?: string;
  value?: string;
  variable_type: 'env_var' | 'file';
  protected: boolean;
  masked: boolean;
  masked_and_hidden?: boolean;
  raw: boolean;
  environment_scope: string;
  description: string;
}

const base = (owner: VariableOwner) => `/${owner.kind === 'project' ? 'projects' : 'groups'}/${owner.id}/variables`;
const one = (owner: VariableOwner, variable: Pick<CiVariable, 'key'>) => `${base(owner)}/${encodeId(variable.key)}`;
/** One key may exist once per environment scope: the filter names which. */
const scopeFilter = (variable: Pick<CiVariable, 'environment_scope'>) => ({ 'filter[environment_scope]': variable.environment_scope });

export const ciVariableKeys = { list: (owner: VariableOwner) => [owner.kind === 'project' ? 'projects' : 'groups', owner.id, 'ci-variables'] as const };

export const ciVariablesQuery = (owner: VariableOwner) =>
  queryOptions({
    queryKey: ciVariableKeys.list(owner),
    queryFn: ({ signal }) => api.get<CiVariable[]>(base(owner), { signal, query: { per_page: 100 } }),
  });

export const createCiVariableMutation = (owner: VariableOwner) =>
  mutationOptions({
    mutationKey: [...ciVariableKeys.list(owner), 'create'],
    mutationFn: (body: CiVariableInput) => api.post<CiVariable>(base(owner), { body }),
  });

export const updateCiVariableMutation = (owner: VariableOwner) =>
  mutationOptions({
    mutationKey: [...ciVariableKeys.list(owner), 'update'],
    mutationFn: ({ variable, body }: { variable: CiVariable; body: Omit<CiVariableInput, 'key'> }) => api.put<CiVariable>(one(owner, variable), { body, query: scopeFilter(variable) }),
  });

export const deleteCiVariableMutation = (owner: VariableOwner) =>
  mutationOptions({
    mutationKey: [...ciVariableKeys.list(owner), 'delete'],
    mutationFn: (variable: CiVariable) => api.delete(one(owner, variable), { query: scopeFilter(variable) }),
  });
