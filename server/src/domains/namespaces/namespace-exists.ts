/**
 * GitLab's GET /namespaces/:namespace/exists answer: `{ exists, suggests }`, where a taken path
 * suggests the first free `path1`, `path2`, … (Gitlab::Utils::Uniquify). Pure but for `taken`.
 */
export async function namespaceExistsAnswer(path: string, taken: (path: string) => Promise<boolean>): Promise<{ exists: boolean; suggests: string[] }> {
  if (!(await taken(path))) return { exists: false, suggests: [] };
  for (let n = 1; n <= 100; n++) {
    const candidate = `${path}${n}`;
    if (!(await taken(candidate))) return { exists: true, suggests: [candidate] };
  }
  return { exists: true, suggests: [] };
}
