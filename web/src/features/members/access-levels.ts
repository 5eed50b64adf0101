import { ACCESS_LEVEL_NAMES } from '@tributary/contracts/access-levels';

/** The roles the members pages offer, lowest first: Guest, Reporter, Developer, Maintainer, Owner. */
export const ROLE_LEVELS = [10, 20, 30, 40, 50] as const;

export function roleName(level: number): string {
  return ACCESS_LEVEL_NAMES[level] ?? `Level ${level}`;
}
