import { ACCESS_LEVEL_NAMES, AccessLevel } from '@tributary/contracts/access-levels';

/** The roles the members pages offer, lowest first: Guest, Reporter, Developer, Maintainer, Owner. */
export const ROLE_LEVELS = [AccessLevel.Guest, AccessLevel.Reporter, AccessLevel.Developer, AccessLevel.Maintainer, AccessLevel.Owner] as const;

export function roleName(level: number): string {
  return ACCESS_LEVEL_NAMES[level] ?? `Level ${level}`;
}
