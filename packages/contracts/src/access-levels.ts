/** GitLab's access levels, as numbers on the wire. */
export const AccessLevel = {
  NoAccess: 0,
  MinimalAccess: 5,
  Guest: 10,
  Planner: 15,
  Reporter: 20,
  Developer: 30,
  Maintainer: 40,
  Owner: 50,
  Admin: 60,
} as const;

export type AccessLevelValue = (typeof AccessLevel)[keyof typeof AccessLevel];

export const MEMBER_ACCESS_LEVELS = [10, 15, 20, 30, 40, 50] as const;

export const ACCESS_LEVEL_NAMES: Record<number, string> = {
  0: 'No access',
  5: 'Minimal Access',
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
  60: 'Admin',
};

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public'];
