import { queryOptions } from '@tanstack/react-query';
import { apiErrorFromBody } from '../../lib/api-error';

/** A variable given when the pipeline was run; `value` is null when the caller may not read it. */
export interface ManualVariable {
  id: string;
  key: string;
  value: string | null;
}

export interface ManualVariables {
  count: number;
  nodes: ManualVariable[];
}

/** GitLab's get_manual_variables query (the pipeline page's Manual variables tab). */
const GET_MANUAL_VARIABLES = `query getManualVariables($projectPath: ID!, $iid: ID!) {
  project(fullPath: $projectPath) { id pipeline(iid: $iid) { id manualVariables { count nodes { id key value } } } }
}`;

/**
 * The variables of one pipeline, read over GraphQL with a GET (a read needs no CSRF token). A
 * pipeline the caller cannot read answers no project: that is a 404 here, as the REST reads.
 */
export const manualVariablesQuery = (fullPath: string, iid: number) =>
  queryOptions({
    queryKey: ['pipelines', fullPath, iid, 'manual_variables'] as const,
    queryFn: async ({ signal }): Promise<ManualVariables> => {
      const search = new URLSearchParams({ query: GET_MANUAL_VARIABLES, variables: JSON.stringify({ projectPath: fullPath, iid: String(iid) }) });
      const response = await fetch(`/api/graphql?${search.toString()}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
      const body = (await response.json().catch(() => null)) as { data?: { project: { pipeline: { manualVariables: ManualVariables | null } | null } | null } } | null;
      if (!response.ok) throw apiErrorFromBody(response.status, body);
      const variables = body?.data?.project?.pipeline?.manualVariables;
      if (!variables) throw apiErrorFromBody(404, { message: '404 Not found' });
      return variables;
    },
  });
