import type { JobVariable } from './job.js';

/**
 * gitlab-runner expands `$NAME` and `${NAME}` in the values of variables that are not `raw`,
 * from the job's variables (later ones win, an unknown name is empty); `$$` is a literal `$`.
 * The expansion is one pass: a value that expands to `$OTHER` is not expanded again.
 */
export function expandVariables(variables: readonly JobVariable[]): JobVariable[] {
  const values = new Map<string, string>();
  for (const variable of variables) values.set(variable.key, variable.value);
  return variables.map((variable) => {
    if (variable.raw || variable.file || !variable.value.includes('$')) return variable;
    const value = variable.value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (match, braced?: string, bare?: string) => {
      if (match === '$$') return '$';
      const name = braced ?? bare!;
      return name === variable.key ? '' : values.get(name) ?? '';
    });
    return { ...variable, value };
  });
}
