/**
 * GitLab's environment folders: environments whose names share the part before the first `/`
 * (`review/feature-a`, `review/feature-b`) are listed together under that folder; any other
 * environment is listed on its own. Folders and environments keep the order of the list.
 */
export type EnvironmentListItem<E> = { kind: 'environment'; environment: E } | { kind: 'folder'; name: string; environments: E[] };

export function inFolders<E extends { name: string }>(environments: readonly E[]): EnvironmentListItem<E>[] {
  const items: EnvironmentListItem<E>[] = [];
  const folders = new Map<string, E[]>();
  for (const environment of environments) {
    const slash = environment.name.indexOf('/');
    if (slash <= 0) {
      items.push({ kind: 'environment', environment });
      continue;
    }
    const name = environment.name.slice(0, slash);
    const folder = folders.get(name);
    if (folder) folder.push(environment);
    else {
      const created = [environment];
      folders.set(name, created);
      items.push({ kind: 'folder', name, environments: created });
    }
  }
  return items;
}

/** The name an environment shows inside its folder (`review/feature-a` → `feature-a`). */
export const nameInFolder = (name: string) => name.slice(name.indexOf('/') + 1);
