/** The scopes a personal access token can have, with GitLab's descriptions. */
export const TOKEN_SCOPES: { scope: string; description: string }[] = [
  {
    scope: 'api',
    description:
      'Grants complete read/write access to the API, including all groups and projects, the container registry, the dependency proxy, and the package registry.',
  },
  {
    scope: 'read_api',
    description: 'Grants read access to the API, including all groups and projects, the container registry, and the package registry.',
  },
  {
    scope: 'read_user',
    description:
      'Grants read-only access to your profile through the /user API endpoint, which includes username, public email, and full name. Also grants access to read-only API endpoints under /users.',
  },
  {
    scope: 'read_repository',
    description: 'Grants read-only access to repositories on private projects using Git-over-HTTP or the Repository Files API.',
  },
  {
    scope: 'write_repository',
    description: 'Grants read-write access to repositories on private projects using Git-over-HTTP (not using the API).',
  },
  {
    scope: 'create_runner',
    description: 'Grants create access to the runners.',
  },
  {
    scope: 'manage_runner',
    description: 'Grants access to manage the runners.',
  },
];

/** GitLab's default and longest token lifetimes, in days. */
export const DEFAULT_TOKEN_LIFETIME_DAYS = 30;
export const MAX_TOKEN_LIFETIME_DAYS = 365;
